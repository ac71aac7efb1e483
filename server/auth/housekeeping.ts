import 'server-only';
import type { Db } from '@/server/db/types';
import { SIGN_IN_WINDOW_MS } from './sign-in-throttle';

// Dead sessions are kept a day after they end, for "why was I signed out?" questions, then dropped.
const KEEP_ENDED_SESSIONS_MS = 24 * 3_600_000;

/**
 * Deletes rows that can no longer matter: sessions a day after they ended, sign-in failures once
 * outside the throttling window. Call it from time to time (e.g. hourly); correctness never depends on it.
 */
export async function purgeExpiredAuthState(db: Db, now: Date = new Date()): Promise<{ sessions: number; signInAttempts: number }> {
  const sessionCutoff = new Date(now.getTime() - KEEP_ENDED_SESSIONS_MS);
  const sessions = await db.one<{ n: number }>(
    'WITH gone AS (DELETE FROM sessions WHERE absolute_expires_at < $1 OR revoked_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone',
    [sessionCutoff],
  );
  const attempts = await db.one<{ n: number }>(
    'WITH gone AS (DELETE FROM sign_in_attempts WHERE at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone',
    [new Date(now.getTime() - SIGN_IN_WINDOW_MS)],
  );
  return { sessions: sessions?.n ?? 0, signInAttempts: attempts?.n ?? 0 };
}
