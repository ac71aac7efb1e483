import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ClientSubmitted } from '@/components/welcome/client-submitted';
import { answersCopy } from '@/lib/forms/answers-copy';
import { readFormSnapshot } from '@/server/applications/form-snapshot';
import { intakeApplication } from '@/server/applications/intake-application';
import { findUserById } from '@/server/auth';
import { appDb } from '@/server/db/app-db';
import { guardPage, readOrNotFound, type PageProps } from '@/server/http/page-guard';
import { findInvitation } from '@/server/invitations';
import { organisationName } from '@/server/invitations/organisation-name';

export const metadata: Metadata = { title: 'Application sent' };

// /applications/[applicationId]/submitted – the invited client's confirmation: what was sent, when, what happens next, who to contact, a copy of the answers
export default async function SubmittedPage({ params, searchParams }: PageProps<'applicationId'>) {
  const { applicationId } = await params;
  const session = await guardPage({
    path: `/applications/${applicationId}/submitted`,
    query: await searchParams,
    roles: ['client'],
    othersGoTo: `/applications/${applicationId}`,
    application: applicationId,
  });
  const db = await appDb();
  const invitation = await findInvitation(db, session.invitationId);
  const [snapshot, inviter, organisation] = await Promise.all([
    readOrNotFound(readFormSnapshot(intakeApplication, applicationId)),
    invitation ? findUserById(db, invitation.createdBy) : Promise.resolve(null),
    organisationName(),
  ]);
  const submittedAt = snapshot.application.submitted_at;
  // Not sent yet: the form is where it is finished.
  if (submittedAt === null) redirect(`/applications/${applicationId}`);
  return (
    <ClientSubmitted
      view={{
        applicationId,
        applicationName: snapshot.contract.application_name,
        businessName: snapshot.application.business?.name ?? null,
        submittedAt,
        organisation,
        contact: inviter ? { name: inviter.name, email: inviter.email } : null,
        sections: answersCopy({ contract: snapshot.contract, answers: snapshot.answers.items, items: snapshot.items, files: snapshot.files }),
      }}
    />
  );
}
