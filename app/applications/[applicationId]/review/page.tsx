import type { Metadata } from 'next';
import { ReviewPage } from '@/components/autofill/review-page';
import { ApplicationEnvelope, AutofillRunId } from '@/lib/portal';
import { appDb } from '@/server/db/app-db';
import { guardPage, type PageProps } from '@/server/http/page-guard';
import { isPortalError, portalRequest, routes } from '@/server/portal';
import { businessOfApplicationRow } from '@/server/read-model/queries';

/** The business of the application: the read model's row, else the application's own read (a 404 is the review page's to show). */
async function businessOf(applicationId: string) {
  const row = await businessOfApplicationRow(await appDb(), applicationId);
  if (row) return row;
  try {
    const res = await portalRequest({ path: routes.application(applicationId), schema: ApplicationEnvelope });
    return res.data.application.business;
  } catch (e) {
    if (isPortalError(e)) return null;
    throw e;
  }
}

export const metadata: Metadata = { title: 'Review Autofill suggestions' };

// /applications/[applicationId]/review – the review queue of a run's suggestions, for staff and reviewers
export default async function ReviewAutofillPage({ params, searchParams }: PageProps<'applicationId'>) {
  const { applicationId } = await params;
  const query = await searchParams;
  // Clients prepare Autofill; deciding on suggestions is for staff and reviewers.
  const othersGoTo = `/applications/${applicationId}/autofill`;
  const session = await guardPage({ path: `/applications/${applicationId}/review`, query, roles: ['staff', 'reviewer'], othersGoTo, application: applicationId });
  const run = query.run;
  const requestedRunId = typeof run === 'string' && AutofillRunId.safeParse(run).success ? run : null;
  const business = await businessOf(applicationId);
  const shown = business ? { id: business.id, name: business.name ?? `Unnamed business (${business.id})`, linked: session.role === 'staff' } : null;
  return <ReviewPage key={requestedRunId ?? 'latest'} applicationId={applicationId} business={shown} requestedRunId={requestedRunId} />;
}
