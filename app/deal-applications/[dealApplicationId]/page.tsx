import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { dealHref } from '@/components/deals/deal-labels';
import { IntakeFormPage } from '@/components/intake-form/intake-form-page';
import { DealApplicationId, DealId } from '@/lib/portal';
import { readDealFormSnapshot } from '@/server/deal-applications/form-snapshot';
import { readDeal } from '@/server/deals/read-deal';
import { dealSummaryView } from '@/server/deals/views';
import { currentSession } from '@/server/http/current-session';
import { isPortalError } from '@/server/portal';
import '@/components/deals/deals.css';

export const metadata: Metadata = { title: 'Deal application' };

interface PageProps {
  params: Promise<{ dealApplicationId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** The deal a link says the application belongs to, once the deal confirms it (for the way back). */
async function dealOf(dealId: unknown, dealApplicationId: string) {
  if (typeof dealId !== 'string' || !DealId.safeParse(dealId).success) return null;
  try {
    const deal = dealSummaryView((await readDeal(dealId)).data);
    return deal.application?.id === dealApplicationId ? deal : null;
  } catch {
    return null;
  }
}

// /deal-applications/[dealApplicationId] – a deal's application, filled with the same contract-driven form (staff only)
export default async function DealApplicationPage({ params, searchParams }: PageProps) {
  const { dealApplicationId } = await params;
  const raw = await searchParams;
  const session = await currentSession();
  if (!session) redirect(`/sign-in?next=${encodeURIComponent(`/deal-applications/${dealApplicationId}`)}`);
  if (session.role !== 'staff') redirect('/');
  if (!DealApplicationId.safeParse(dealApplicationId).success) notFound();
  const apiBase = `/api/deal-applications/${dealApplicationId}` as const;

  // Read here, on the server, so the form is in the first HTML (as the intake form's page does); anything
  // but "not found" is left to the browser, which shows the error with a retry.
  const [snapshotJson, deal] = await Promise.all([
    readDealFormSnapshot(dealApplicationId).then(
      ({ requestId: _requestId, ...snapshot }) => JSON.stringify(snapshot),
      (e: unknown) => {
        if (isPortalError(e) && e.status === 404) notFound();
        return null;
      },
    ),
    dealOf(raw.deal_id, dealApplicationId),
  ]);
  const section = raw.section;
  return (
    <>
      <p className="deals-back">
        {deal ? <Link href={dealHref(deal.id, typeof raw.business_id === 'string' ? raw.business_id : null)}>← Deal: {deal.name}</Link> : <Link href="/deals">← All deals</Link>}
      </p>
      <IntakeFormPage
        apiBase={apiBase}
        snapshotJson={snapshotJson}
        canWrite
        deviceKey={`${session.userId}:${dealApplicationId}`}
        initialSection={typeof section === 'string' ? section : null}
      />
    </>
  );
}
