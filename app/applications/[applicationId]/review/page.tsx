import type { Metadata } from 'next';
import { ReviewPage } from '@/components/autofill/review-page';
import { ApplicationEnvelope, AutofillRunId } from '@/lib/portal';
import { applicationLinks } from '@/server/applications/intake-application';
import { appDb } from '@/server/db/app-db';
import { guardPage, readOrNotFound, type PageProps } from '@/server/http/page-guard';
import { portalRequest, routes } from '@/server/portal';
import { businessOfApplicationRow } from '@/server/read-model/queries';

/** The business of the application: the read model's row, else the application's own read. */
async function businessOf(applicationId: string) {
  const row = await businessOfApplicationRow(await appDb(), applicationId);
  if (row) return row;
  const res = await readOrNotFound(portalRequest({ path: routes.application(applicationId), schema: ApplicationEnvelope }));
  return res.data.application.business;
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
  // Before the page answers: an application the Portal does not have is a 404, a Portal failure the error page
  // (500). Its links are what the review's own requests read next (kept, so not an extra read).
  await readOrNotFound(applicationLinks(applicationId));
  const business = await businessOf(applicationId);
  const shown = business ? { id: business.id, name: business.name ?? `Unnamed business (${business.id})`, linked: session.role === 'staff' } : null;
  return <ReviewPage key={requestedRunId ?? 'latest'} applicationId={applicationId} business={shown} requestedRunId={requestedRunId} />;
}
