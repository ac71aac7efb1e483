import 'server-only';

/**
 * An invitation lets one client (named by email/name, for the staff's benefit) into exactly one
 * application. The link may be opened several times until it expires or is revoked.
 */
export interface Invitation {
  id: string;
  applicationId: string;
  businessId: string | null;
  clientEmail: string | null;
  clientName: string | null;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  firstUsedAt: Date | null;
  lastUsedAt: Date | null;
  useCount: number;
  /** The client submits to the Portal itself rather than sending for review. */
  clientSubmits: boolean;
}

export type InvitationStatus = 'active' | 'expired' | 'revoked';

export interface InvitationRow {
  id: string;
  application_id: string;
  business_id: string | null;
  client_email: string | null;
  client_name: string | null;
  created_by: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  first_used_at: Date | null;
  last_used_at: Date | null;
  use_count: number;
  client_submits: boolean;
}

/** Every column but token_hash, which stays in the database. */
export const INVITATION_COLUMNS =
  'id, application_id, business_id, client_email, client_name, created_by, created_at, expires_at, revoked_at, first_used_at, last_used_at, use_count, client_submits';

export function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    applicationId: row.application_id,
    businessId: row.business_id,
    clientEmail: row.client_email,
    clientName: row.client_name,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    firstUsedAt: row.first_used_at,
    lastUsedAt: row.last_used_at,
    useCount: row.use_count,
    clientSubmits: row.client_submits,
  };
}

/** Revocation wins over expiry: it is the more deliberate fact. */
export function invitationStatus(invitation: Pick<Invitation, 'revokedAt' | 'expiresAt'>, now: Date): InvitationStatus {
  if (invitation.revokedAt) return 'revoked';
  return invitation.expiresAt.getTime() > now.getTime() ? 'active' : 'expired';
}
