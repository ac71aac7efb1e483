import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { dealRowOf, DealsTable } from '@/components/deals/deals-table';
import { FreshnessNote } from '@/components/workspace/freshness-note';
import { apiUrl } from '@/lib/api/client';
import { dealsCsvApi } from '@/lib/api/endpoints';
import { DealsQuery, newestDealsFirst } from '@/lib/bff/deals';
import { appDb } from '@/server/db/app-db';
import { readBusinessName } from '@/server/deals/deal-business';
import { listDeals } from '@/server/deals/list';
import { guardPage, type PageProps } from '@/server/http/page-guard';
import { listWorkspaceDeals } from '@/server/read-model/deal-list';
import '@/components/deals/deals.css';

export const metadata: Metadata = { title: 'Deals' };

const one = (v: string | string[] | undefined) => (typeof v === 'string' && v !== '' ? v : undefined);
const PAGE_SIZE = 25;

// /deals – every deal newest first with its business (the read model), a page at a time; ?business_id= narrows it to one business's (the Portal)
export default async function DealsPage({ searchParams }: PageProps) {
  const raw = await searchParams;
  const businessId = one(raw.business_id);
  // A malformed business id names no business; a malformed page just starts again from the first.
  await guardPage({ path: '/deals', query: raw, roles: ['staff'], ids: { business: businessId } });
  return businessId ? <BusinessDeals businessId={businessId} /> : <AllDeals page={Math.max(1, Number.parseInt(one(raw.page) ?? '1', 10) || 1)} />;
}

async function AllDeals({ page }: { page: number }) {
  const deals = await listWorkspaceDeals(await appDb(), page, PAGE_SIZE);
  const last = Math.max(1, Math.ceil(deals.total / PAGE_SIZE));
  return (
    <section aria-labelledby="deals-title">
      <div className="deals-head">
        <h1 id="deals-title">Deals</h1>
        <Link href="/deals/new" className="deals-action">
          Create a deal
        </Link>
      </div>
      <p className="muted">Every deal of the Portal, newest first. Open a deal to move it through its workflow and fill its application.</p>
      <p>
        <a href={apiUrl(dealsCsvApi.GET)}>Download every deal (CSV)</a>
      </p>
      <FreshnessNote freshness={deals.freshness} now={new Date().toISOString()} canRefresh />
      {deals.items.length === 0 ? (
        <p>No deals yet.</p>
      ) : (
        <DealsTable deals={deals.items} showBusiness caption={`All deals, newest first: page ${page} of ${last}`} />
      )}
      <nav aria-label="Pages" className="pager">
        {page > 1 && <Link href={`/deals?page=${page - 1}`}>← Previous page</Link>}
        {page < last && <Link href={`/deals?page=${page + 1}`}>Next page →</Link>}
      </nav>
    </section>
  );
}

async function BusinessDeals({ businessId }: { businessId: string }) {
  // One business's deals are few: one page of the most the Portal gives, so "newest first" holds for all of them.
  const query = DealsQuery.parse({ page_size: 100, business_id: businessId });
  const [business, { view, fromReadModel }] = await Promise.all([readBusinessName(businessId), listDeals(query)]);
  if (!business) notFound();
  const businessName = business.name ?? `Unnamed business (${business.id})`;
  return (
    <section aria-labelledby="deals-title">
      <div className="deals-head">
        <h1 id="deals-title">Deals of {businessName}</h1>
        <Link href={`/deals/new?business_id=${encodeURIComponent(businessId)}`} className="deals-action">
          Create a deal<span className="visually-hidden"> for {businessName}</span>
        </Link>
      </div>
      <p>
        <Link href="/deals">All deals</Link>
      </p>
      {view.items.length === 0 ? (
        <p>{businessName} has no deals yet.</p>
      ) : (
        <DealsTable deals={newestDealsFirst(view.items).map((d) => dealRowOf(d, business))} showBusiness caption={`Deals of ${businessName}, newest first`} />
      )}
      {view.next_cursor && <p>{businessName} has more than {view.items.length} deals; the newest of the first {view.items.length} are shown.</p>}
      {fromReadModel && (
        <p className="muted">This Portal does not list deals by business: these are the deals this app knows were made for {businessName}.</p>
      )}
    </section>
  );
}
