import type { Metadata } from 'next';
import Link from 'next/link';
import { currentSession } from '@/server/http/current-session';

export const metadata: Metadata = { title: 'Not found', robots: { index: false, follow: false } };

/**
 * The app's own not-found page (HTTP 404): an address that names nothing, an id the Portal does not have, or
 * something this person may not see (indistinguishable on purpose). It offers the ways back this person has.
 */
export default async function NotFound() {
  const session = await currentSession();
  return (
    <section aria-labelledby="not-found-title" className="narrow">
      <h1 id="not-found-title">This page was not found</h1>
      <p>There is nothing at this address that you can open. The link may be mistyped, or what it named may have been removed.</p>
      <nav aria-label="Ways back">
        <ul>
          {session?.kind === 'client' ? (
            <li>
              <Link href={`/applications/${session.applicationId}`}>Your application</Link>
            </li>
          ) : (
            <li>
              <Link href="/">Home</Link>
            </li>
          )}
          {session?.role === 'staff' && (
            <>
              <li>
                <Link href="/businesses">Businesses</Link>
              </li>
              <li>
                <Link href="/deals">Deals</Link>
              </li>
            </>
          )}
          {!session && (
            <li>
              <Link href="/sign-in">Sign in</Link>
            </li>
          )}
        </ul>
      </nav>
    </section>
  );
}
