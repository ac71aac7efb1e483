import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { ReviewPage } from '@/components/autofill/review-page';
import { ApplicationId, AutofillRunId } from '@/lib/portal';
import { currentSession } from '@/server/http/current-session';

export const metadata: Metadata = { title: 'Review Autofill suggestions' };

interface PageProps {
  params: Promise<{ applicationId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

// /applications/[applicationId]/review – the review queue of a run's suggestions, for staff and reviewers
export default async function ReviewAutofillPage({ params, searchParams }: PageProps) {
  const { applicationId } = await params;
  const session = await currentSession();
  if (!session) redirect(`/sign-in?next=${encodeURIComponent(`/applications/${applicationId}/review`)}`);
  if (!ApplicationId.safeParse(applicationId).success) notFound();
  if (session.kind === 'client') {
    // Clients prepare Autofill; deciding on suggestions is for staff and reviewers.
    if (session.applicationId !== applicationId) notFound();
    redirect(`/applications/${applicationId}/autofill`);
  }
  const run = (await searchParams).run;
  const requestedRunId = typeof run === 'string' && AutofillRunId.safeParse(run).success ? run : null;
  return <ReviewPage key={requestedRunId ?? 'latest'} applicationId={applicationId} requestedRunId={requestedRunId} />;
}
