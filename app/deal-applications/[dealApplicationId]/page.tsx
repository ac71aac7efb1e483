import type { Metadata } from 'next';
import { dealApplicationFormBase } from '@/lib/api/form-base';
import Link from 'next/link';
import { dealHref } from '@/components/deals/deal-labels';
import { IntakeFormPage } from '@/components/intake-form/intake-form-page';
import { DealId } from '@/lib/portal';
import { formOpeningJson } from '@/server/applications/form-opening';
import { dealApplication } from '@/server/applications/deal-application';
import { readFormSnapshot } from '@/server/applications/form-snapshot';
import { readDeal } from '@/server/deals/read-deal';
import { dealSummaryView } from '@/server/deals/deal-views';
import { guardPage, readOrNotFound, type PageProps } from '@/server/http/page-guard';
import '@/components/deals/deals.css';

export const metadata: Metadata = { title: 'Deal application' };

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
export default async function DealApplicationPage({ params, searchParams }: PageProps<'dealApplicationId'>) {
  const { dealApplicationId } = await params;
  const raw = await searchParams;
  const path = `/deal-applications/${dealApplicationId}`;
  const session = await guardPage({ path, query: raw, roles: ['staff'], ids: { dealApplication: dealApplicationId } });
  const apiBase = dealApplicationFormBase(dealApplicationId);

  // Read here, on the server, before anything is sent, so the form is in the first HTML and the status is
  // the read's (as the intake form's page does).
  const section = raw.section;
  const [snapshotJson, deal] = await Promise.all([
    readOrNotFound(formOpeningJson(readFormSnapshot(dealApplication, dealApplicationId), typeof section === 'string' ? section : null, { sid: session.sid, id: dealApplicationId })),
    dealOf(raw.deal_id, dealApplicationId),
  ]);
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
      />
    </>
  );
}
