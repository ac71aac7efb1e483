import type { Metadata } from 'next';
import Link from 'next/link';
import { DealCreateForm } from '@/components/deals/deal-create-form';
import { readBusinessName } from '@/server/deals/deal-business';
import { guardPage, type PageProps } from '@/server/http/page-guard';
import { portalFeatures } from '@/server/portal';
import '@/components/deals/deals.css';

export const metadata: Metadata = { title: 'Create a deal' };

// /deals/new – create a deal for a business, for the Portal itself or a recipient (?business_id= preselects the business)
export default async function NewDealPage({ searchParams }: PageProps) {
  const raw = await searchParams;
  await guardPage({ path: '/deals/new', query: raw, roles: ['staff'] });
  // An unknown business is not preselected: the person chooses one as if none was given.
  const [business, features] = await Promise.all([
    typeof raw.business_id === 'string' ? readBusinessName(raw.business_id) : Promise.resolve(null),
    portalFeatures(),
  ]);
  return (
    <section aria-labelledby="new-deal-title" className="deals-form">
      <p className="deals-back">
        <Link href={business ? `/deals?business_id=${encodeURIComponent(business.id)}` : '/deals'}>← {business ? 'Deals of the business' : 'All deals'}</Link>
      </p>
      <h1 id="new-deal-title">Create a deal</h1>
      <p className="muted">A deal is made for a business, either for the Portal itself or for a recipient such as a lender. It comes with its own application.</p>
      <DealCreateForm initialBusiness={business} recipients={features.recipients} />
    </section>
  );
}
