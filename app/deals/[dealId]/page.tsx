import type { Metadata } from 'next';
import Link from 'next/link';
import { DealApplicationPanel } from '@/components/deals/deal-application-panel';
import { DealWorkflow } from '@/components/deals/deal-workflow';
import { DealFunding } from '@/components/funding/deal-funding';
import { DealStagePage } from '@/lib/portal';
import type { DealApplicationSummary } from '@/lib/bff/deals';
import { readDealApplicationSummary } from '@/server/applications/deal-application';
import { businessOfDeal } from '@/server/deals/deal-business';
import { readDeal } from '@/server/deals/read-deal';
import { dealView } from '@/server/deals/deal-views';
import { guardPage, readOrNotFound, type PageProps } from '@/server/http/page-guard';
import { readWorkflowStages } from '@/server/workflows/stages';
import { readDealMatch } from '@/server/projects/deal-match';
import { portalFeatures } from '@/server/portal';
import '@/components/deals/deals.css';

export const metadata: Metadata = { title: 'Deal' };

// /deals/[dealId] – one deal: who it is for, its workflow with stage moves, and its application
export default async function DealPage({ params, searchParams }: PageProps<'dealId'>) {
  const { dealId } = await params;
  const raw = await searchParams;
  await guardPage({ path: `/deals/${dealId}`, query: raw, roles: ['staff'], ids: { deal: dealId } });

  const [deal, features] = await Promise.all([readOrNotFound(readDeal(dealId)), portalFeatures()]);
  const view = dealView(deal.data, deal.etag ?? '');
  const businessId = typeof raw.business_id === 'string' ? raw.business_id : null;
  const applicationId = view.application?.id ?? null;
  // The application's summary is a nicety: when it cannot be read, the deal is still shown.
  const [stages, business, application, match] = await Promise.all([
    readWorkflowStages(deal.data.workflow, DealStagePage),
    businessId ? businessOfDeal(dealId, businessId) : Promise.resolve(null),
    applicationId ? readDealApplicationSummary(applicationId).catch((): DealApplicationSummary | 'unavailable' => 'unavailable') : Promise.resolve(null),
    // Like the application's summary, the match is a nicety; without the Portal's funding operations there is none to read.
    features.funding ? readDealMatch(deal.data).catch(() => 'unavailable' as const) : Promise.resolve(null),
  ]);

  return (
    <article aria-labelledby="deal-title">
      <p className="deals-back">
        <Link href={business ? `/deals?business_id=${encodeURIComponent(business.id)}` : '/deals'}>
          ← {business ? `Deals of ${business.name ?? business.id}` : 'All deals'}
        </Link>
      </p>
      <DealWorkflow initialDeal={view} stages={stages.view} business={business} />
      {view.project && features.funding && <DealFunding project={view.project} match={match} />}
      <DealApplicationPanel dealId={dealId} businessId={business?.id ?? null} applicationId={applicationId} summary={application} />
    </article>
  );
}
