import 'server-only';
import type { Db } from '@/server/db/types';

/**
 * Whether an invited client has been welcomed, and the section of the form they were last in. The welcome
 * page is shown on the first opening of each invitation link only; every later opening goes straight to
 * the form.
 */

/** Records the welcome of this invitation; true only the first time (so the caller shows the welcome page). */
export async function claimWelcome(db: Db, invitation: { id: string; applicationId: string }, now: Date = new Date()): Promise<boolean> {
  const inserted = await db.one<{ invitation_id: string }>(
    `INSERT INTO client_welcomes (invitation_id, application_id, welcomed_at) VALUES ($1, $2, $3)
     ON CONFLICT (invitation_id) DO NOTHING RETURNING invitation_id`,
    [invitation.id, invitation.applicationId, now],
  );
  return inserted !== null;
}

/** Remembers the section the client opened (the row exists once the link was opened; a missing one is made). */
export async function rememberSection(db: Db, invitation: { id: string; applicationId: string }, sectionKey: string, now: Date = new Date()) {
  await db.query(
    `INSERT INTO client_welcomes (invitation_id, application_id, welcomed_at, last_section, section_at) VALUES ($1, $2, $4, $3, $4)
     ON CONFLICT (invitation_id) DO UPDATE SET last_section = EXCLUDED.last_section, section_at = EXCLUDED.section_at`,
    [invitation.id, invitation.applicationId, sectionKey, now],
  );
}

/** The section the application's client was last in, through any of its invitations; null before any. */
export async function lastSection(db: Db, applicationId: string): Promise<string | null> {
  const row = await db.one<{ last_section: string }>(
    `SELECT last_section FROM client_welcomes
      WHERE application_id = $1 AND last_section IS NOT NULL
      ORDER BY section_at DESC LIMIT 1`,
    [applicationId],
  );
  return row?.last_section ?? null;
}
