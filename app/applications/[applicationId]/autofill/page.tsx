import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { PreparationPage } from '@/components/autofill/preparation-page';
import { ApplicationId } from '@/lib/portal';
import { currentSession } from '@/server/http/current-session';

export const metadata: Metadata = { title: 'Autofill' };

interface PageProps {
  params: Promise<{ applicationId: string }>;
}

// /applications/[applicationId]/autofill – Autofill preparation and runs: staff and the invited client prepare
// and start, reviewers follow
export default async function AutofillPage({ params }: PageProps) {
  const { applicationId } = await params;
  const session = await currentSession();
  if (!session) redirect(`/sign-in?next=${encodeURIComponent(`/applications/${applicationId}/autofill`)}`);
  // Another client's application is indistinguishable from a missing one, as in the API.
  if (!ApplicationId.safeParse(applicationId).success) notFound();
  if (session.kind === 'client' && session.applicationId !== applicationId) notFound();
  return <PreparationPage applicationId={applicationId} canEdit={session.role !== 'reviewer'} canReview={session.role !== 'client'} />;
}
