import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { QueryProvider } from '@/components/providers/query-provider';
import { currentSession } from '@/server/http/current-session';
import './globals.css';
import './print.css';

export const metadata: Metadata = {
  title: { default: 'Intake', template: '%s · Intake' },
  description: 'Complete client intake applications for the Portal',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {/* Around the header too: signing out is a mutation like any other write. */}
        <QueryProvider>
          <header className="app-header">
            <Link href="/" className="app-name">
              Intake
            </Link>
            {session?.role === 'staff' && (
              <nav aria-label="Main" className="main-nav">
                <Link href="/businesses">Businesses</Link>
                <Link href="/businesses/board">Board</Link>
                <Link href="/deals">Deals</Link>
                <Link href="/outbox">Outbox</Link>
              </nav>
            )}
            {session?.kind === 'client' && (
              <nav aria-label="Main" className="main-nav">
                <Link href={`/applications/${session.applicationId}`}>Your application</Link>
              </nav>
            )}
            <nav aria-label="Account" className="account">
              {session?.kind === 'user' && (
                <>
                  <span>
                    {session.userName} <span className="muted">({session.role})</span>
                  </span>
                  <SignOutButton />
                </>
              )}
              {session?.kind === 'client' && (
                <>
                  <span>Invited client</span>
                  <SignOutButton />
                </>
              )}
              {!session && <Link href="/sign-in">Sign in</Link>}
            </nav>
          </header>
          <main id="main" tabIndex={-1}>
            {children}
          </main>
        </QueryProvider>
      </body>
    </html>
  );
}
