import type { Metadata } from 'next';
import Link from 'next/link';
import { ContinueAsClient } from '@/components/auth/continue-as-client';
import { appDb } from '@/server/db/app-db';
import { currentSession } from '@/server/http/current-session';
import { seeOther, type PageProps } from '@/server/http/page-guard';
import { peekInvitation } from '@/server/invitations';
import { businessOfApplicationRow } from '@/server/read-model/queries';

export const metadata: Metadata = { title: 'Open the invitation?', robots: { index: false, follow: false } };

// /invite/[token]/confirm – where an invitation link sends a browser that is signed in already: it asks before
// the session is replaced (a link another site sends the browser to must not switch who is signed in).
export default async function ConfirmInvitationPage({ params }: PageProps<'token'>) {
  const { token } = await params;
  const link = `/invite/${encodeURIComponent(token)}`;
  const session = await currentSession();
  // Nobody to replace: the link itself opens the application.
  if (!session) seeOther(link);
  const db = await appDb();
  const invitation = await peekInvitation(db, token);
  if (!invitation.ok) seeOther(`/invite/invalid?reason=${invitation.reason}`);
  const { applicationId } = invitation.invitation;
  // The same link's client has nothing to confirm.
  if (session.kind === 'client' && session.invitationId === invitation.invitation.id) seeOther(`/applications/${encodeURIComponent(applicationId)}`);
  const business = await businessOfApplicationRow(db, applicationId);
  const who = session.kind === 'user' ? `${session.userName} (${session.role})` : 'the invited client of another application';
  const stay = session.kind === 'user' ? '/' : `/applications/${encodeURIComponent(session.applicationId)}`;
  return (
    <section aria-labelledby="invite-confirm-title" className="narrow">
      <h1 id="invite-confirm-title">Continue as the invited client?</h1>
      <p>
        You are signed in as <strong>{who}</strong>.
      </p>
      <p>{`This link invites a client to complete ${business?.name ? `the application of ${business.name}` : 'an application'}. Continuing signs you out of this session and opens the application as that client.`}</p>
      <ContinueAsClient token={token} />
      <p>
        <Link href={stay}>{session.kind === 'user' ? `Stay signed in as ${session.userName}` : 'Go back to your application'}</Link>
      </p>
    </section>
  );
}
