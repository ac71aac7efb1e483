import type { Metadata } from 'next';
import { SignInForm } from '@/components/auth/sign-in-form';
import { currentSession } from '@/server/http/current-session';
import { nextPath } from '@/server/http/next-path';
import { seeOther } from '@/server/http/page-guard';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = nextPath((await searchParams).next);
  if (await currentSession()) seeOther(next);
  return (
    <section aria-labelledby="sign-in-title" className="narrow">
      <h1 id="sign-in-title">Sign in</h1>
      <p>Staff and reviewers sign in here. Clients open the invitation link they were sent.</p>
      <SignInForm next={next} />
    </section>
  );
}
