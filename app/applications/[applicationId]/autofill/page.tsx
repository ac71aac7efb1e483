import type { Metadata } from 'next';
import { PreparationPage } from '@/components/autofill/preparation-page';
import { applicationLinks } from '@/server/applications/intake-application';
import { guardPage, readOrNotFound, type PageProps } from '@/server/http/page-guard';

export const metadata: Metadata = { title: 'Autofill' };

// /applications/[applicationId]/autofill – Autofill preparation and runs: staff and the invited client prepare
// and start, reviewers follow
export default async function AutofillPage({ params, searchParams }: PageProps<'applicationId'>) {
  const { applicationId } = await params;
  const path = `/applications/${applicationId}/autofill`;
  const session = await guardPage({ path, query: await searchParams, roles: ['staff', 'reviewer', 'client'], application: applicationId });
  // The application must exist before the page answers (404 otherwise); its links are what the page's own
  // requests read next, so this read is theirs, kept, not an extra one.
  await readOrNotFound(applicationLinks(applicationId));
  return <PreparationPage applicationId={applicationId} canEdit={session.role !== 'reviewer'} canReview={session.role !== 'client'} />;
}
