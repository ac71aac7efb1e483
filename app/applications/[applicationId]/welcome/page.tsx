import type { Metadata } from 'next';
import { ClientWelcome } from '@/components/welcome/client-welcome';
import { readFormSnapshot } from '@/server/applications/form-snapshot';
import { intakeApplication } from '@/server/applications/intake-application';
import { readOrNotFound, type PageProps } from '@/server/http/page-guard';
import { invitedClientPage } from '@/server/invitations/client-page';
import { clientWelcomeView } from '@/server/invitations/welcome-view';

export const metadata: Metadata = { title: 'Welcome' };

// /applications/[applicationId]/welcome – the invited client's first stop: who asked, what is needed, which documents, how far along
export default async function WelcomePage({ params, searchParams }: PageProps<'applicationId'>) {
  const { applicationId } = await params;
  const { shown: snapshot, invitation, inviter, organisation } = await invitedClientPage(applicationId, 'welcome', await searchParams, () =>
    readOrNotFound(readFormSnapshot(intakeApplication, applicationId)),
  );
  const view = clientWelcomeView(snapshot, { clientName: invitation?.clientName ?? null, invitedBy: inviter?.name ?? null, organisation });
  return <ClientWelcome view={view} />;
}
