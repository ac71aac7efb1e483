import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DealsTable } from '@/components/deals/deals-table';
import { DealsQuery, newestDealsFirst } from '@/lib/bff/deals';
import { readBusinessName } from '@/server/deals/deal-business';
import { listDeals } from '@/server/deals/list';
import { guardPage, type PageProps } from '@/server/http/page-guard';
import '@/components/deals/deals.css';

export const metadata: Metadata = { title: 'Deals' };

const one = (v: string | string[] | undefined) => (typeof v === 'string' && v !== '' ? v : undefined);

// /deals – every deal, a page at a time; ?business_id= narrows it to one business's deals
export default async function DealsPage({ searchParams }: PageProps) {
  const raw = await searchParams;
  const businessId = one(raw.business_id);
  // A malformed business id names no business; a malformed cursor just starts again from the first page.
  await guardPage({ path: '/deals', query: raw, roles: ['staff'], ids: { business: businessId } });
  // One business's deals are few: a page of the most the Portal gives, so "newest first" holds for all of them.
  const pageSize = businessId ? 100 : 25;
  const query = DealsQuery.safeParse({ page_size: pageSize, business_id: businessId, cursor: one(raw.cursor) });
  const [business, { view }] = await Promise.all([
    businessId ? readBusinessName(businessId) : Promise.resolve(null),
    listDeals(query.success ? query.data : { page_size: pageSize, business_id: businessId }),
  ]);
  if (businessId && !business) notFound();
  const businessName = business ? (business.name ?? `Unnamed business (${business.id})`) : null;
  const pageLink = (c: string) => `/deals?${new URLSearchParams({ ...(businessId ? { business_id: businessId } : {}), cursor: c })}`;
  const createHref = businessId ? `/deals/new?business_id=${encodeURIComponent(businessId)}` : '/deals/new';

  return (
    <section aria-labelledby="deals-title">
      <div className="deals-head">
        <h1 id="deals-title">{businessName ? `Deals of ${businessName}` : 'Deals'}</h1>
        <Link href={createHref} className="deals-action">
          Create a deal{businessName ? <span className="visually-hidden"> for {businessName}</span> : null}
        </Link>
      </div>
      {businessId ? (
        <p>
          <Link href="/deals">All deals</Link>
        </p>
      ) : (
        <p className="muted">Every deal of the Portal, oldest first. Open a deal to move it through its workflow and fill its application.</p>
      )}
      {view.items.length === 0 ? (
        <p>{businessName ? `${businessName} has no deals yet.` : 'No deals yet.'}</p>
      ) : (
        <DealsTable
          deals={business ? newestDealsFirst(view.items).map((d) => ({ ...d, business })) : view.items}
          showBusiness={business !== null}
          caption={businessName ? `Deals of ${businessName}, newest first` : 'All deals'}
        />
      )}
      <nav aria-label="Pages" className="pager">
        {view.previous_cursor && <Link href={pageLink(view.previous_cursor)}>← Previous page</Link>}
        {view.next_cursor && <Link href={pageLink(view.next_cursor)}>Next page →</Link>}
      </nav>
    </section>
  );
}
