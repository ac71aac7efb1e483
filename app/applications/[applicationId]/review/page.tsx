import type { Metadata } from 'next';
import { ReviewPage } from '@/components/autofill/review-page';
import { AutofillRunId } from '@/lib/portal';
import { guardPage, type PageProps } from '@/server/http/page-guard';

export const metadata: Metadata = { title: 'Review Autofill suggestions' };

// /applications/[applicationId]/review – the review queue of a run's suggestions, for staff and reviewers
export default async function ReviewAutofillPage({ params, searchParams }: PageProps<'applicationId'>) {
  const { applicationId } = await params;
  const query = await searchParams;
  // Clients prepare Autofill; deciding on suggestions is for staff and reviewers.
  const othersGoTo = `/applications/${applicationId}/autofill`;
  await guardPage({ path: `/applications/${applicationId}/review`, query, roles: ['staff', 'reviewer'], othersGoTo, application: applicationId });
  const run = query.run;
  const requestedRunId = typeof run === 'string' && AutofillRunId.safeParse(run).success ? run : null;
  return <ReviewPage key={requestedRunId ?? 'latest'} applicationId={applicationId} requestedRunId={requestedRunId} />;
}
