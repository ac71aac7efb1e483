import 'server-only';
import type { Db } from '@/server/db/types';
import { INVITATION_COLUMNS, toInvitation, type Invitation, type InvitationRow } from './invitation-record';
import { hashInvitationToken, isWellFormedInvitationToken } from './invitation-token';

export type RedeemResult = { ok: true; invitation: Invitation } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' };

/**
 * Exchanges a link token for its invitation and counts the use. The caller then opens a client
 * session with createClientSession. The refusal reason is for the page shown to the client (a revoked
 * or expired link should say "ask for a new one"); it reveals nothing a token holder could not know.
 */
export async function redeemInvitation(db: Db, token: string, now: Date = new Date()): Promise<RedeemResult> {
  if (!isWellFormedInvitationToken(token)) return { ok: false, reason: 'unknown' };
  const tokenHash = hashInvitationToken(token);
  // Check and count in one statement, so a link revoked a moment ago is never counted as used.
  const used = await db.one<InvitationRow>(
    `UPDATE invitations
        SET use_count = use_count + 1, first_used_at = COALESCE(first_used_at, $2), last_used_at = $2
      WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2
      RETURNING ${INVITATION_COLUMNS}`,
    [tokenHash, now],
  );
  if (used) return { ok: true, invitation: toInvitation(used) };

  const refused = await db.one<{ revoked_at: Date | null }>('SELECT revoked_at FROM invitations WHERE token_hash = $1', [tokenHash]);
  if (!refused) return { ok: false, reason: 'unknown' };
  return { ok: false, reason: refused.revoked_at ? 'revoked' : 'expired' };
}

/**
 * The invitation a token names and whether it could be redeemed now, without counting a use: for the page
 * that asks a signed-in person first, before anything changes.
 */
export async function peekInvitation(db: Db, token: string, now: Date = new Date()): Promise<RedeemResult> {
  if (!isWellFormedInvitationToken(token)) return { ok: false, reason: 'unknown' };
  const row = await db.one<InvitationRow>(`SELECT ${INVITATION_COLUMNS} FROM invitations WHERE token_hash = $1`, [hashInvitationToken(token)]);
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.revoked_at) return { ok: false, reason: 'revoked' };
  if (row.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, invitation: toInvitation(row) };
}
