import 'server-only';
import type { Db } from '@/server/db/types';

/** Failures older than this are forgotten. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

interface Delays {
  /** Failures allowed without any wait. */
  free: number;
  /** The wait after the first failure beyond `free`; it doubles with each further one. */
  baseMs: number;
  /** The wait never grows beyond this: throttling slows guessing, it never locks anyone out. */
  maxMs: number;
}

/*
 * Progressive delays instead of a lock. A lock on an email (five failures, fifteen minutes) let anyone who
 * knew a colleague's email keep them out; a delay counted per (account, client) lets a person on another
 * client straight in, and every wait has a ceiling, so even the right password is only ever slowed.
 */
export const SIGN_IN_THROTTLE = {
  /** One account from one client: a person mistyping gets a few tries, then waits 1, 2, 4 … 60 s between tries. */
  pair: { free: 3, baseMs: 1_000, maxMs: 60_000 },
  /** One client across accounts (password spraying): 1, 2, 4 … 30 s after ten failures. */
  client: { free: 10, baseMs: 1_000, maxMs: 30_000 },
  /**
   * One account across clients (guessing from many addresses). The ceiling: it applies only to a client
   * after that client's own failure, so a client that has not failed for this account is never held by it.
   */
  account: { free: 5, baseMs: 1_000, maxMs: 30_000 },
} as const satisfies Record<string, Delays>;

// Emails are stored capped so a hostile client cannot fill the table with megabyte-long "addresses".
const MAX_STORED_EMAIL = 320;

export const delayAfter = (failures: number, d: Delays) => (failures < d.free ? 0 : Math.min(d.maxMs, d.baseMs * 2 ** (failures - d.free)));

interface Counts {
  pair_n: number;
  pair_last: Date | null;
  client_n: number;
  client_last: Date | null;
  account_n: number;
}

/**
 * When sign-in for this email from this client may be tried again, or null if it may be tried now.
 * `client` is the client's address (null when unknown: those share one client per email).
 */
export async function throttledUntil(db: Db, email: string, client: string | null, now: Date): Promise<Date | null> {
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
  const c = await db.one<Counts>(
    `SELECT
       count(*) FILTER (WHERE email = $1 AND ip IS NOT DISTINCT FROM $2::text)::int AS pair_n,
       max(at) FILTER (WHERE email = $1 AND ip IS NOT DISTINCT FROM $2::text) AS pair_last,
       count(*) FILTER (WHERE ip = $2::text)::int AS client_n,
       max(at) FILTER (WHERE ip = $2::text) AS client_last,
       count(*) FILTER (WHERE email = $1)::int AS account_n
     FROM sign_in_attempts WHERE at > $3 AND (email = $1 OR ip = $2::text)`,
    [email.slice(0, MAX_STORED_EMAIL), client, since],
  );
  if (!c) return null;
  const t = SIGN_IN_THROTTLE;
  // Only a wait holds an attempt back. A row stamped after `now` (another attempt from this client, begun later
  // but reserved first, as parallel sign-ins from one office are) is no reason to wait when its count asks none.
  const waitUntil = (last: Date | null, delayMs: number) => (last && delayMs > 0 ? new Date(last).getTime() + delayMs : 0);
  const until = Math.max(
    waitUntil(c.pair_last, Math.max(delayAfter(c.pair_n, t.pair), delayAfter(c.account_n, t.account))),
    waitUntil(c.client_last, delayAfter(c.client_n, t.client)),
  );
  return until > now.getTime() ? new Date(until) : null;
}

export async function recordSignInFailure(db: Db, email: string, client: string | null, now: Date): Promise<void> {
  await db.query('INSERT INTO sign_in_attempts (email, ip, at) VALUES ($1, $2, $3)', [email.slice(0, MAX_STORED_EMAIL), client, now]);
}

// Advisory lock classes (pg_advisory_xact_lock(class, key)): attempts for one email, and from one client.
const EMAIL_LOCK = 0x5349_4745; // 'SIGE'
const CLIENT_LOCK = 0x5349_4743; // 'SIGC'

export type Reservation = { ok: true; id: number } | { ok: false; until: Date };

/**
 * Checks the throttle and, when the attempt may go ahead, records it as a failure, in one transaction that
 * attempts for the same email or from the same client queue for (whichever instance they reach; PGlite runs
 * one transaction at a time anyway). The password is checked only after that, so attempts sent at once are
 * counted one after the other: the fourth of fifteen parallel guesses already sees three failures and waits.
 * The caller then settles the reservation: kept as the failure (stamped with the time of the answer), or
 * cleared with the pair's other failures on success.
 */
export async function reserveSignInAttempt(db: Db, email: string, client: string | null, now: Date): Promise<Reservation> {
  const stored = email.slice(0, MAX_STORED_EMAIL);
  return db.transaction(async (tx) => {
    // Always the email's lock first, then the client's: two attempts never wait for each other in a circle.
    await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2::text))', [EMAIL_LOCK, stored]);
    await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2::text))', [CLIENT_LOCK, client ?? '']);
    const until = await throttledUntil(tx, stored, client, now);
    if (until) return { ok: false, until };
    const row = await tx.one<{ id: number }>('INSERT INTO sign_in_attempts (email, ip, at) VALUES ($1, $2, $3) RETURNING id', [stored, client, now]);
    return { ok: true, id: Number(row!.id) };
  });
}

/** A reserved attempt that failed: its wait runs from the answer, not from the request. */
export async function settleSignInFailure(db: Db, reservationId: number, answeredAt: Date): Promise<void> {
  await db.query('UPDATE sign_in_attempts SET at = $2 WHERE id = $1', [reservationId, answeredAt]);
}

/**
 * The right password clears this client's failures for the account (its own reservation among them). Not the
 * account's from other clients (someone may be guessing it elsewhere), nor the client's for other accounts.
 */
export async function clearSignInFailures(db: Db, email: string, client: string | null): Promise<void> {
  await db.query('DELETE FROM sign_in_attempts WHERE email = $1 AND ip IS NOT DISTINCT FROM $2::text', [email.slice(0, MAX_STORED_EMAIL), client]);
}
