import type { Metadata } from 'next';
import Link from 'next/link';
import { ListQuery } from '@/lib/bff/businesses';
import { listBusinesses } from '@/server/businesses/list';
import { guardPage, type PageProps } from '@/server/http/page-guard';
import '@/components/businesses/businesses.css';

export const metadata: Metadata = { title: 'Businesses' };

// /businesses – the Portal's businesses, a page at a time, each linking to its page and its intake application
export default async function BusinessesPage({ searchParams }: PageProps) {
  const raw = await searchParams;
  await guardPage({ path: '/businesses', query: raw, roles: ['staff'] });
  const query = ListQuery.safeParse({ page_size: 25, ...(typeof raw.cursor === 'string' ? { cursor: raw.cursor } : {}) });
  const { view } = await listBusinesses(query.success ? query.data : { page_size: 25 });
  return (
    <section aria-labelledby="businesses-title">
      <div className="biz-list-head">
        <h1 id="businesses-title">Businesses</h1>
        <Link href="/businesses/board">Pipeline board</Link>
        <Link href="/businesses/new" className="biz-button-link">
          Create a business
        </Link>
      </div>
      {view.items.length === 0 ? (
        <p>No businesses yet.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Business</th>
              <th scope="col">Intake application</th>
            </tr>
          </thead>
          <tbody>
            {view.items.map((b) => (
              <tr key={b.id}>
                <td>
                  <Link href={`/businesses/${b.id}`}>{b.name ?? `Unnamed business (${b.id})`}</Link>
                </td>
                <td>
                  <Link href={`/businesses/${b.id}/application`} prefetch={false}>
                    Open application<span className="visually-hidden"> of {b.name ?? b.id}</span>
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav aria-label="Pages" className="pager">
        {view.previous_cursor && <Link href={`/businesses?cursor=${encodeURIComponent(view.previous_cursor)}`}>← Previous page</Link>}
        {view.next_cursor && <Link href={`/businesses?cursor=${encodeURIComponent(view.next_cursor)}`}>Next page →</Link>}
      </nav>
    </section>
  );
}
