import 'server-only';
import { z } from 'zod';
import { revokeSessionsForInvitation } from '@/server/auth/sessions';
import { newId } from '@/server/db/ids';
import { suppressQueuedMessages } from '@/server/messages/outbox';
import { stopReminders } from '@/server/reminders/reminders';
import type { Db } from '@/server/db/types';
import { INVITATION_COLUMNS, invitationStatus, toInvitation, type Invitation, type InvitationRow, type InvitationStatus } from './invitation-record';
import { newInvitationToken } from './invitation-token';

export const DEFAULT_INVITATION_TTL_HOURS = 168;
// Links travel by email and stay valid until they expire: keep that bounded.
export const MAX_INVITATION_TTL_HOURS = 24 * 90;

const HOUR_MS = 3_600_000;

export class InvalidInvitationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidInvitationError';
  }
}

const newInvitationSchema = z.object({
  applicationId: z.string().min(1).max(255),
  businessId: z.string().min(1).max(255).nullish(),
  clientEmail: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email().max(254))
    .nullish(),
  clientName: z.string().trim().min(1).max(200).nullish(),
  createdBy: z.string().min(1),
  ttlHours: z.number().positive().max(MAX_INVITATION_TTL_HOURS).default(DEFAULT_INVITATION_TTL_HOURS),
  /** The client submits to the Portal itself; otherwise (the default) it sends the application for review. */
  clientSubmits: z.boolean().default(false),
});

export type NewInvitation = z.input<typeof newInvitationSchema>;

/**
 * Creates an invitation and returns it with its token, the only time the token exists in clear:
 * the caller puts it in the link and must not store or log it.
 */
export async function createInvitation(db: Db, input: NewInvitation, now: Date = new Date()): Promise<{ invitation: Invitation; token: string }> {
  const parsed = newInvitationSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInvitationError(`${issue?.path.join('.') ?? 'input'}: ${issue?.message ?? 'invalid'}`);
  }
  const v = parsed.data;
  const { token, tokenHash } = newInvitationToken();
  const expiresAt = new Date(now.getTime() + v.ttlHours * HOUR_MS);
  const row = await db.one<InvitationRow>(
    `INSERT INTO invitations (id, token_hash, application_id, business_id, client_email, client_name, created_by, created_at, expires_at, client_submits)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${INVITATION_COLUMNS}`,
    [newId('inv'), tokenHash, v.applicationId, v.businessId ?? null, v.clientEmail ?? null, v.clientName ?? null, v.createdBy, now, expiresAt, v.clientSubmits],
  );
  if (!row) throw new Error('INSERT … RETURNING gave no row');
  return { invitation: toInvitation(row), token };
}

export async function findInvitation(db: Db, id: string): Promise<Invitation | null> {
  const row = await db.one<InvitationRow>(`SELECT ${INVITATION_COLUMNS} FROM invitations WHERE id = $1`, [id]);
  return row ? toInvitation(row) : null;
}

export interface InvitationSummary extends Invitation {
  status: InvitationStatus;
}

/** An application's invitations, newest first, with their status as of `now` and how they were used. */
export async function listInvitations(db: Db, applicationId: string, now: Date = new Date()): Promise<InvitationSummary[]> {
  const rows = await db.query<InvitationRow>(
    `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE application_id = $1 ORDER BY created_at DESC, id`,
    [applicationId],
  );
  return rows.map((row) => {
    const invitation = toInvitation(row);
    return { ...invitation, status: invitationStatus(invitation, now) };
  });
}

/**
 * Revokes the invitation and, in the same transaction, every client session opened with it (the client is
 * out on their next request) and every mail of it not yet handed to the SMTP server (`suppressed`). Revoking twice keeps the first time. Null when no such invitation.
 */
export async function revokeInvitation(db: Db, id: string, now: Date = new Date()): Promise<Invitation | null> {
  return db.transaction(async (tx) => {
    const row = await tx.one<InvitationRow>(
      `UPDATE invitations SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${INVITATION_COLUMNS}`,
      [id, now],
    );
    if (!row) return null;
    await revokeSessionsForInvitation(tx, id, now);
    await suppressQueuedMessages(tx, id, now);
    await stopReminders(tx, { invitationId: id }, 'The invitation was revoked.', now);
    return toInvitation(row);
  });
}
