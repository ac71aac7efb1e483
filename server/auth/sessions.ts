import 'server-only';
import type { AccountRole } from '@/lib/bff/roles';
import { newSecretToken, SECRET_TOKEN_PATTERN } from '@/server/db/ids';
import type { Db } from '@/server/db/types';
import { forgetLocally, sessionCacheOf, type CachedSession } from './session-cache';
import { DEFAULT_SESSION_POLICY, SESSION_TOUCH_INTERVAL_MS, type SessionPolicy } from './session-policy';


/** What every request learns about its caller; built from the server-side record, never from the cookie. */
export type ResolvedSession =
  | { sid: string; kind: 'user'; role: AccountRole; userId: string; userEmail: string; userName: string }
  | { sid: string; kind: 'client'; role: 'client'; invitationId: string; applicationId: string; businessId: string | null };

export interface CreatedSession {
  sid: string;
  absoluteExpiresAt: Date;
}

interface CreateOptions {
  now?: Date;
  policy?: SessionPolicy;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export async function createUserSession(
  db: Db,
  user: { id: string; role: AccountRole },
  { now = new Date(), policy = DEFAULT_SESSION_POLICY }: CreateOptions = {},
): Promise<CreatedSession> {
  const sid = newSecretToken();
  const absoluteExpiresAt = new Date(now.getTime() + policy.absoluteHours * HOUR_MS);
  await db.query(
    `INSERT INTO sessions (id, kind, user_id, role, created_at, last_seen_at, absolute_expires_at)
     VALUES ($1, 'user', $2, $3, $4, $4, $5)`,
    [sid, user.id, user.role, now, absoluteExpiresAt],
  );
  return { sid, absoluteExpiresAt };
}

/** A client's session never outlives the invitation it came from. */
export async function createClientSession(
  db: Db,
  invitation: { id: string; applicationId: string; expiresAt: Date },
  { now = new Date(), policy = DEFAULT_SESSION_POLICY }: CreateOptions = {},
): Promise<CreatedSession> {
  const sid = newSecretToken();
  const byPolicy = now.getTime() + policy.absoluteHours * HOUR_MS;
  const absoluteExpiresAt = new Date(Math.min(byPolicy, invitation.expiresAt.getTime()));
  await db.query(
    `INSERT INTO sessions (id, kind, invitation_id, application_id, role, created_at, last_seen_at, absolute_expires_at)
     VALUES ($1, 'client', $2, $3, 'client', $4, $4, $5)`,
    [sid, invitation.id, invitation.applicationId, now, absoluteExpiresAt],
  );
  return { sid, absoluteExpiresAt };
}

interface SessionRow {
  id: string;
  kind: 'user' | 'client';
  last_seen_at: Date;
  absolute_expires_at: Date;
  invitation_expires_at: Date | null;
  application_id: string | null;
  user_id: string | null;
  user_email: string | null;
  user_name: string | null;
  user_role: AccountRole | null;
  invitation_id: string | null;
  business_id: string | null;
}

// The per-request check: one indexed SELECT. Every reason to refuse (revoked, idle, past its absolute
// expiry, user disabled, invitation revoked or expired) is a condition here, so each takes effect on the
// very next request. The role comes from users, not from the session row, so a role change applies at
// once. last_seen_at is refreshed by a separate UPDATE only when it is older than the touch interval, so
// most requests write nothing (a write inside the same statement cost every request a write path).
const RESOLVE_SQL = /* sql */ `
SELECT s.id, s.kind, s.application_id, s.last_seen_at, s.absolute_expires_at,
       u.id AS user_id, u.email AS user_email, u.name AS user_name, u.role AS user_role,
       i.id AS invitation_id, i.business_id, i.expires_at AS invitation_expires_at
  FROM sessions s
  LEFT JOIN users u ON s.kind = 'user' AND u.id = s.user_id
  LEFT JOIN invitations i ON s.kind = 'client' AND i.id = s.invitation_id
 WHERE s.id = $1
   AND s.revoked_at IS NULL
   AND s.absolute_expires_at > $2
   AND s.last_seen_at > $3
   AND (   (s.kind = 'user' AND u.id IS NOT NULL AND u.disabled_at IS NULL)
        OR (s.kind = 'client' AND i.id IS NOT NULL AND i.revoked_at IS NULL AND i.expires_at > $2))`;

const TOUCH_SQL = /* sql */ `UPDATE sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at <= $3`;

function toResolved(row: SessionRow): ResolvedSession | null {
  if (row.kind === 'user' && row.user_id && row.user_email && row.user_name !== null && row.user_role) {
    return { sid: row.id, kind: 'user', role: row.user_role, userId: row.user_id, userEmail: row.user_email, userName: row.user_name };
  }
  if (row.kind === 'client' && row.invitation_id && row.application_id) {
    return {
      sid: row.id,
      kind: 'client',
      role: 'client',
      invitationId: row.invitation_id,
      applicationId: row.application_id,
      businessId: row.business_id,
    };
  }
  return null;
}

/** The session's row, checked and touched when due: what the cache keeps. */
async function lookup(db: Db, sid: string, now: Date, policy: SessionPolicy): Promise<CachedSession | null> {
  if (!SECRET_TOKEN_PATTERN.test(sid)) return null;
  const idleCutoff = new Date(now.getTime() - policy.idleMinutes * MINUTE_MS);
  const touchCutoff = new Date(now.getTime() - SESSION_TOUCH_INTERVAL_MS);
  const row = await db.one<SessionRow>(RESOLVE_SQL, [sid, now, idleCutoff]);
  if (!row) return null;
  let lastSeen = row.last_seen_at;
  if (lastSeen <= touchCutoff) {
    await db.query(TOUCH_SQL, [sid, now, touchCutoff]);
    lastSeen = now;
  }
  const session = toResolved(row);
  if (!session) return null;
  const validUntil = Math.min(row.absolute_expires_at.getTime(), row.invitation_expires_at?.getTime() ?? Infinity);
  return { session, lastSeenMs: lastSeen.getTime(), validUntilMs: validUntil };
}

/** The live session for sid, or null when there is none or it may no longer be used (read from the database). */
export async function resolveSession(
  db: Db,
  sid: string,
  now: Date = new Date(),
  policy: SessionPolicy = DEFAULT_SESSION_POLICY,
): Promise<ResolvedSession | null> {
  return (await lookup(db, sid, now, policy))?.session ?? null;
}

/**
 * resolveSession for requests: served from this instance's session cache when it may be (see
 * session-cache.ts for why that is as safe as the database), else read and kept.
 */
export async function resolveSessionCached(db: Db, sid: string, policy: SessionPolicy = DEFAULT_SESSION_POLICY): Promise<ResolvedSession | null> {
  const cache = sessionCacheOf(db);
  const now = Date.now();
  const hit = cache.get(sid, now, policy.idleMinutes * MINUTE_MS, SESSION_TOUCH_INTERVAL_MS);
  if (hit) return hit;
  const mark = cache.mark();
  const found = await lookup(db, sid, new Date(now), policy);
  if (found) cache.put(sid, found, mark);
  return found?.session ?? null;
}

/**
 * Whether sid may still be used, by the same rules as resolveSession, without counting as activity: a
 * long-lived stream asks this now and then, and must not keep an otherwise idle session alive.
 */
export async function isSessionLive(
  db: Db,
  sid: string,
  now: Date = new Date(),
  policy: SessionPolicy = DEFAULT_SESSION_POLICY,
): Promise<boolean> {
  if (!SECRET_TOKEN_PATTERN.test(sid)) return false;
  const idleCutoff = new Date(now.getTime() - policy.idleMinutes * MINUTE_MS);
  return (await db.one<SessionRow>(RESOLVE_SQL, [sid, now, idleCutoff])) !== null;
}

/** Sign-out. True when a live session was revoked. */
export async function revokeSession(db: Db, sid: string, now: Date = new Date()): Promise<boolean> {
  forgetLocally(`sid:${sid}`);
  const rows = await db.query('UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id', [sid, now]);
  return rows.length > 0;
}

/** Ends every session of a user (disabled, password changed); returns how many were live. */
export async function revokeSessionsForUser(db: Db, userId: string, now: Date = new Date()): Promise<number> {
  forgetLocally(`user:${userId}`);
  const rows = await db.query('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id', [userId, now]);
  return rows.length;
}

/** Ends every client session opened with an invitation; returns how many were live. */
export async function revokeSessionsForInvitation(db: Db, invitationId: string, now: Date = new Date()): Promise<number> {
  forgetLocally(`invitation:${invitationId}`);
  const rows = await db.query('UPDATE sessions SET revoked_at = $2 WHERE invitation_id = $1 AND revoked_at IS NULL RETURNING id', [
    invitationId,
    now,
  ]);
  return rows.length;
}
