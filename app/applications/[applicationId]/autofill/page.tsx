import type { Metadata } from 'next';
import { PreparationPage } from '@/components/autofill/preparation-page';
import { guardPage, type PageProps } from '@/server/http/page-guard';

export const metadata: Metadata = { title: 'Autofill' };

// /applications/[applicationId]/autofill – Autofill preparation and runs: staff and the invited client prepare
// and start, reviewers follow
export default async function AutofillPage({ params, searchParams }: PageProps<'applicationId'>) {
  const { applicationId } = await params;
  const path = `/applications/${applicationId}/autofill`;
  const session = await guardPage({ path, query: await searchParams, roles: ['staff', 'reviewer', 'client'], application: applicationId });
  return <PreparationPage applicationId={applicationId} canEdit={session.role !== 'reviewer'} canReview={session.role !== 'client'} />;
}
