import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/sign-in-form';
import { currentSession } from '@/server/http/current-session';

export const metadata: Metadata = { title: 'Sign in' };

/** Only a path on this site, so a crafted link cannot send someone elsewhere after signing in. */
const safeNext = (next: string | string[] | undefined) =>
  typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeNext((await searchParams).next);
  if (await currentSession()) redirect(next);
  return (
    <section aria-labelledby="sign-in-title" className="narrow">
      <h1 id="sign-in-title">Sign in</h1>
      <p>Staff and reviewers sign in here. Clients open the invitation link they were sent.</p>
      <SignInForm next={next} />
    </section>
  );
}
