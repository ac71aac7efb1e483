import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { IntakeFormPage } from '@/components/intake-form/intake-form-page';
import { ApplicationId } from '@/lib/portal';
import { readFormSnapshot } from '@/server/applications/form-snapshot';
import { currentSession } from '@/server/http/current-session';
import { isPortalError } from '@/server/portal';

export const metadata: Metadata = { title: 'Application' };

interface PageProps {
  params: Promise<{ applicationId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

// /applications/[applicationId] – the intake form, for staff, reviewers (read only) and the invited client
export default async function ApplicationPage({ params, searchParams }: PageProps) {
  const { applicationId } = await params;
  const session = await currentSession();
  if (!session) redirect(`/sign-in?next=${encodeURIComponent(`/applications/${applicationId}`)}`);
  // Another client's application is indistinguishable from a missing one, as in the API.
  if (!ApplicationId.safeParse(applicationId).success) notFound();
  if (session.kind === 'client' && session.applicationId !== applicationId) notFound();
  const section = (await searchParams).section;
  const who = session.kind === 'user' ? session.userId : `client-${session.invitationId}`;
  const apiBase = `/api/applications/${applicationId}` as const;

  // The snapshot is read here, on the server, so the form is in the first HTML and needs no second trip.
  // It travels as one JSON string: a large contract serializes and parses several times faster that way
  // than as the object tree React would otherwise encode. Anything but "not found" is left to the
  // browser, which shows the error with a retry.
  let snapshotJson: string | null = null;
  try {
    const { requestId: _requestId, ...snapshot } = await readFormSnapshot(applicationId);
    snapshotJson = JSON.stringify(snapshot);
  } catch (e) {
    if (isPortalError(e) && e.status === 404) notFound();
  }
  return (
    <>
      <nav aria-label="Autofill" className="actions">
        <Link href={`/applications/${applicationId}/autofill`}>Autofill</Link>
        {session.role !== 'client' && <Link href={`/applications/${applicationId}/review`}>Review suggestions</Link>}
      </nav>
      <IntakeFormPage
        apiBase={apiBase}
        snapshotJson={snapshotJson}
        canWrite={session.role !== 'reviewer'}
        deviceKey={`${who}:${applicationId}`}
        initialSection={typeof section === 'string' ? section : null}
      />
    </>
  );
}
