import 'server-only';
import { createClientSession, revokeSession, type ResolvedSession } from '@/server/auth';
import { sessionPolicy } from '@/server/auth/session-settings';
import type { Db } from '@/server/db/types';
import { recordInvitationChanged } from '@/server/read-model/record';
import { claimWelcome } from './client-welcome';
import { redeemInvitation, type RedeemResult } from './redeem-invitation';

export type OpenedInvitation = { ok: true; sid: string; location: string } | Extract<RedeemResult, { ok: false }>;

/**
 * Opens an invitation link for a browser: counts the use, ends the session the browser held (`previous`: staff,
 * a reviewer, another link's client — one browser never holds two identities, and no orphaned session outlives
 * the cookie it loses) and makes the client's. The caller writes the new session's cookie and sends the browser
 * to `location`: the welcome page the first time a link is opened, the form afterwards (where it reopens the
 * section the client was last in). Replacing a session is only ever done once the person said so.
 */
export async function openInvitation(db: Db, token: string, previous: ResolvedSession | null): Promise<OpenedInvitation> {
  const result = await redeemInvitation(db, token);
  if (!result.ok) return result;
  await recordInvitationChanged(db, result.invitation.applicationId);
  if (previous) await revokeSession(db, previous.sid);
  const created = await createClientSession(db, result.invitation, { policy: sessionPolicy() });
  const application = `/applications/${encodeURIComponent(result.invitation.applicationId)}`;
  const location = (await claimWelcome(db, result.invitation)) ? `${application}/welcome` : application;
  return { ok: true, sid: created.sid, location };
}
