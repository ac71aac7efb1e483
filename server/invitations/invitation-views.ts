import 'server-only';
import type { InvitationView } from '@/lib/bff/invitations';
import { invitationStatus, type Invitation } from './invitation-record';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What staff see of an invitation: its status as of `now`, never the token hash or the creator's id. */
export function invitationView(i: Invitation, now: Date = new Date()): InvitationView {
  return {
    id: i.id,
    status: invitationStatus(i, now),
    client_email: i.clientEmail,
    client_name: i.clientName,
    created_at: i.createdAt.toISOString(),
    expires_at: i.expiresAt.toISOString(),
    revoked_at: iso(i.revokedAt),
    first_used_at: iso(i.firstUsedAt),
    last_used_at: iso(i.lastUsedAt),
    use_count: i.useCount,
    client_submits: i.clientSubmits,
  };
}
