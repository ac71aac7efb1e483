import 'server-only';
import type { Db } from '@/server/db/types';

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_IP = 20;

// Emails are stored capped so a hostile client cannot fill the table with megabyte-long "addresses".
const MAX_STORED_EMAIL = 320;

/**
 * When sign-in for this email or IP may be tried again, or null if it may be tried now. A key is
 * blocked while its window holds the maximum number of failures; it frees up when the oldest of those
 * failures leaves the window, i.e. at (the max-th newest failure) + window.
 */
export async function throttledUntil(db: Db, email: string, ip: string | null, now: Date): Promise<Date | null> {
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
  const row = await db.one<{ by_email: Date | null; by_ip: Date | null }>(
    `SELECT
       (SELECT at FROM sign_in_attempts WHERE email = $1 AND at > $3 ORDER BY at DESC OFFSET ${MAX_FAILURES_PER_EMAIL - 1} LIMIT 1) AS by_email,
       (SELECT at FROM sign_in_attempts WHERE ip = $2 AND at > $3 ORDER BY at DESC OFFSET ${MAX_FAILURES_PER_IP - 1} LIMIT 1) AS by_ip`,
    [email.slice(0, MAX_STORED_EMAIL), ip, since],
  );
  const blocking = [row?.by_email, row?.by_ip].filter((d): d is Date => d instanceof Date);
  if (blocking.length === 0) return null;
  return new Date(Math.max(...blocking.map((d) => d.getTime())) + SIGN_IN_WINDOW_MS);
}

export async function recordSignInFailure(db: Db, email: string, ip: string | null, now: Date): Promise<void> {
  await db.query('INSERT INTO sign_in_attempts (email, ip, at) VALUES ($1, $2, $3)', [email.slice(0, MAX_STORED_EMAIL), ip, now]);
}

/** A correct password clears that email's failures (not the IP's: other emails' guesses still count). */
export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await db.query('DELETE FROM sign_in_attempts WHERE email = $1', [email.slice(0, MAX_STORED_EMAIL)]);
}
