import type { Metadata } from 'next';
import { ClientWelcome } from '@/components/welcome/client-welcome';
import { readFormSnapshot } from '@/server/applications/form-snapshot';
import { intakeApplication } from '@/server/applications/intake-application';
import { findUserById } from '@/server/auth';
import { appDb } from '@/server/db/app-db';
import { guardPage, readOrNotFound, type PageProps } from '@/server/http/page-guard';
import { findInvitation } from '@/server/invitations';
import { clientWelcomeView } from '@/server/invitations/welcome-view';
import { organisationName } from '@/server/invitations/organisation-name';

export const metadata: Metadata = { title: 'Welcome' };

// /applications/[applicationId]/welcome – the invited client's first stop: who asked, what is needed, which documents, how far along
export default async function WelcomePage({ params, searchParams }: PageProps<'applicationId'>) {
  const { applicationId } = await params;
  const session = await guardPage({
    path: `/applications/${applicationId}/welcome`,
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
  const view = clientWelcomeView(snapshot, { clientName: invitation?.clientName ?? null, invitedBy: inviter?.name ?? null, organisation });
  return <ClientWelcome view={view} />;
}
