import 'server-only';
import type { Db } from '@/server/db/types';
import { hashPassword, needsRehash, PASSWORD_MAX_LENGTH, verifyPassword } from './passwords';
import { clearSignInFailures, recordSignInFailure, throttledUntil } from './sign-in-throttle';
import { findUserCredentials, normalizeEmail, type User } from './users';

export type SignInResult =
  | { ok: true; user: User }
  /** Unknown email, wrong password and disabled account look the same, so accounts cannot be probed. */
  | { ok: false; error: 'invalid_credentials' }
  | { ok: false; error: 'throttled'; retryAfterSeconds: number };

// A hash of a random, forgotten password with the default parameters: an unknown email is checked
// against it so it takes as long as a known one.
const DUMMY_HASH = 'scrypt$32768$8$1$_mfDeG0TJyCmHjr_etI__A$LrDDyPOkUju8GFmbGMLaywdAi-QAcWKUeCSYHCaUaMs';

/**
 * Checks an email and password. Throttled (5 failures per email or 20 per IP in 15 minutes) before
 * the password is looked at, so guessing is capped even with the right password. The caller creates
 * the session on success. `ip` may be null when unknown; then only the email limit applies.
 */
export async function signIn(db: Db, email: string, password: string, ip: string | null, now: Date = new Date()): Promise<SignInResult> {
  const normalized = normalizeEmail(email);
  const until = await throttledUntil(db, normalized, ip, now);
  if (until) return { ok: false, error: 'throttled', retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)) };

  const found = await findUserCredentials(db, normalized);
  const passwordOk = password.length <= PASSWORD_MAX_LENGTH && (await verifyPassword(password, found?.passwordHash ?? DUMMY_HASH));
  if (!found || !passwordOk || found.user.disabledAt) {
    await recordSignInFailure(db, normalized, ip, now);
    return { ok: false, error: 'invalid_credentials' };
  }

  await clearSignInFailures(db, normalized);
  if (needsRehash(found.passwordHash)) {
    // The cost parameters were raised since this password was set: upgrade while we know the password.
    await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [found.user.id, await hashPassword(password)]);
  }
  return { ok: true, user: found.user };
}
