import Link from 'next/link';
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
      {session?.role === 'staff' && (
        <p>
          <Link href="/businesses">Go to the businesses</Link> to open a client intake application.
        </p>
      )}
      {session?.kind === 'client' && (
        <p>
          <Link href={`/applications/${session.applicationId}`}>Continue your application</Link>
        </p>
      )}
      {!session && <p>Sign in to continue.</p>}
    </section>
  );
}
