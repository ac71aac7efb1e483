import type { Metadata } from 'next';
import { apiUrl } from '@/lib/api/client';
import { applicationApi } from '@/lib/api/endpoints';
import { intakeFormBase } from '@/lib/api/form-base';
import Link from 'next/link';
import { IntakeFormPage } from '@/components/intake-form/intake-form-page';
import { readFormSnapshot } from '@/server/applications/form-snapshot';
import { intakeApplication } from '@/server/applications/intake-application';
import { formOpeningJson } from '@/server/applications/form-opening';
import { appDb } from '@/server/db/app-db';
import { guardPage, readOrNotFound, type PageProps } from '@/server/http/page-guard';
import { lastSection } from '@/server/invitations/client-welcome';
import { StaffReviewPanel } from '@/components/review/staff-review-panel';

export const metadata: Metadata = { title: 'Application' };

// /applications/[applicationId] – the intake form, for staff, reviewers (read only) and the invited client
export default async function ApplicationPage({ params, searchParams }: PageProps<'applicationId'>) {
  const { applicationId } = await params;
  const query = await searchParams;
  const session = await guardPage({ path: `/applications/${applicationId}`, query, roles: ['staff', 'reviewer', 'client'], application: applicationId });
  // The invited client comes back to the section they were last in, unless a link names one.
  const section = typeof query.section === 'string' ? query.section : session.kind === 'client' ? await lastSection(await appDb(), applicationId) : null;
  const who = session.kind === 'user' ? session.userId : `client-${session.invitationId}`;
  const apiBase = intakeFormBase(applicationId);

  // The snapshot is read here, on the server, so the open section is in the first HTML; the rest of the
  // form follows from the browser once it is interactive. It is read before anything is sent: a missing
  // application answers 404, a Portal failure 500 with the error page's retry.
  const read = readFormSnapshot(intakeApplication, applicationId);
  const snapshotJson = await readOrNotFound(formOpeningJson(read, section, { sid: session.sid, id: applicationId }));
  // A client whose application is sent has nothing left for Autofill to do: their confirmation instead.
  const sent = session.kind === 'client' && (await read.then((s) => s.application.submitted_at !== null, () => false));
  const submittedPath = `/applications/${applicationId}/submitted`;
  return (
    <>
      <nav aria-label={sent ? 'Your application' : 'Autofill'} className="actions">
        {sent ? <Link href={submittedPath}>Your confirmation</Link> : <Link href={`/applications/${applicationId}/autofill`}>Autofill</Link>}
        {session.role !== 'client' && <Link href={`/applications/${applicationId}/review`}>Review suggestions</Link>}
        {session.role === 'staff' && <a href={apiUrl(applicationApi.pdf.GET, { params: { applicationId } })}>Download PDF</a>}
        {session.role === 'staff' && <a href={apiUrl(applicationApi.package.GET, { params: { applicationId } })}>Funder package (ZIP)</a>}
      </nav>
      {session.role === 'staff' && <StaffReviewPanel apiBase={apiBase} applicationId={applicationId} />}
      <IntakeFormPage
        apiBase={apiBase}
        snapshotJson={snapshotJson}
        canWrite={session.role !== 'reviewer'}
        deviceKey={`${who}:${applicationId}`}
        placeOf={session.kind === 'client' ? applicationId : null}
        afterSubmit={session.kind === 'client' ? submittedPath : undefined}
        review={{ applicationId, client: session.kind === 'client' }}
      />
    </>
  );
}
