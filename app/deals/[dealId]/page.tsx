import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { DealApplicationPanel } from '@/components/deals/deal-application-panel';
import { DealWorkflow } from '@/components/deals/deal-workflow';
import { DealId, DealStagePage } from '@/lib/portal';
import { readDealApplicationSummary, type DealApplicationSummary } from '@/server/deal-applications/progress';
import { businessOfDeal } from '@/server/deals/deal-business';
import { readDeal } from '@/server/deals/read-deal';
import { dealView } from '@/server/deals/views';
import { currentSession } from '@/server/http/current-session';
import { readWorkflowStages } from '@/server/workflows/stages';
import { isPortalError } from '@/server/portal';
import '@/components/deals/deals.css';

export const metadata: Metadata = { title: 'Deal' };

interface PageProps {
  params: Promise<{ dealId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

// /deals/[dealId] – one deal: who it is for, its workflow with stage moves, and its application
export default async function DealPage({ params, searchParams }: PageProps) {
  const { dealId } = await params;
  const raw = await searchParams;
  const session = await currentSession();
  if (!session) redirect(`/sign-in?next=${encodeURIComponent(`/deals/${dealId}`)}`);
  if (session.role !== 'staff') redirect('/');
  if (!DealId.safeParse(dealId).success) notFound();

  let deal;
  try {
    deal = await readDeal(dealId);
  } catch (e) {
    if (isPortalError(e) && e.status === 404) notFound();
    throw e;
  }
  const view = dealView(deal.data, deal.etag ?? '');
  const businessId = typeof raw.business_id === 'string' ? raw.business_id : null;
  const applicationId = view.application?.id ?? null;
  // The application's summary is a nicety: when it cannot be read, the deal is still shown.
  const [stages, business, application] = await Promise.all([
    readWorkflowStages(deal.data.workflow, DealStagePage),
    businessId ? businessOfDeal(dealId, businessId) : Promise.resolve(null),
    applicationId ? readDealApplicationSummary(applicationId).catch((): DealApplicationSummary | 'unavailable' => 'unavailable') : Promise.resolve(null),
  ]);

  return (
    <article aria-labelledby="deal-title">
      <p className="deals-back">
        <Link href={business ? `/deals?business_id=${encodeURIComponent(business.id)}` : '/deals'}>
          ← {business ? `Deals of ${business.name ?? business.id}` : 'All deals'}
        </Link>
      </p>
      <DealWorkflow initialDeal={view} stages={stages.view} business={business} />
      <DealApplicationPanel dealId={dealId} businessId={business?.id ?? null} applicationId={applicationId} summary={application} />
    </article>
  );
}
