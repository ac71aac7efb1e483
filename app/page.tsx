import { currentSession } from '@/server/http/current-session';

export default async function HomePage() {
  const session = await currentSession();
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">Client intake</h1>
      <p>Bring businesses into the Portal, complete their intake applications and review Autofill suggestions.</p>
      {session?.kind === 'user' && (
        <p>
          Welcome, {session.userName}. You are signed in as {session.role === 'staff' ? 'staff' : 'a reviewer'}.
        </p>
      )}
      {!session && <p>Sign in to continue.</p>}
    </section>
  );
}
