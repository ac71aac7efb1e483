'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { businessDealsQuery } from '@/lib/queries/deals';
import { dealRowOf, DealsTable } from '../deals/deals-table';
import { LoadState } from '../ui/load-state';

/** The business's deals, newest first, with the way to all of them and to a new one. */
export function BusinessDeals({ businessId, businessName }: { businessId: string; businessName: string }) {
  const deals = useQuery(businessDealsQuery(businessId));
  const query = `?business_id=${encodeURIComponent(businessId)}`;
  return (
    <section aria-labelledby="biz-deals-title" className="stack">
      <h2 id="biz-deals-title">Deals</h2>
      <LoadState query={deals} what="the deals" />
      {deals.data && deals.data.items.length === 0 && <p>No deals yet.</p>}
      {deals.data && deals.data.items.length > 0 && (
        <DealsTable
          deals={deals.data.items.map((d) => dealRowOf(d, { id: businessId, name: businessName }))}
          showBusiness={false}
          caption={`Deals of ${businessName}, newest first`}
        />
      )}
      {deals.data?.more && <p>This business has more than {deals.data.items.length} deals; All deals lists every one.</p>}
      <p className="actions">
        <Link href={`/deals${query}`}>
          All deals<span className="visually-hidden"> of {businessName}</span>
        </Link>
        <Link href={`/deals/new${query}`}>
          Create a deal<span className="visually-hidden"> for {businessName}</span>
        </Link>
      </p>
    </section>
  );
}
