import 'server-only';
import type { Db } from '@/server/db/types';
import { hashPassword, needsRehash, PASSWORD_MAX_LENGTH, verifyPassword } from './passwords';
import { clearSignInFailures, reserveSignInAttempt, settleSignInFailure } from './sign-in-throttle';
import { findUserCredentials, normalizeEmail, type User } from './users';

export type SignInResult =
  | { ok: true; user: User }
  /** Unknown email, wrong password and disabled account look the same, so accounts cannot be probed. */
  | { ok: false; error: 'invalid_credentials' }
  | { ok: false; error: 'throttled'; retryAfterSeconds: number };

// A hash of a random, forgotten password with the default parameters: an unknown email is checked
// against it so it takes as long as a known one.
const DUMMY_HASH = 'scrypt$32768$8$1$_mfDeG0TJyCmHjr_etI__A$LrDDyPOkUju8GFmbGMLaywdAi-QAcWKUeCSYHCaUaMs';

// NUL (which the database cannot hold) and lone surrogates (not Unicode). An email holding one names no
// account and is kept only as a throttling key, those characters replaced. A password holding one is wrong
// whatever the hash says: scrypt's HMAC pads its key with zero bytes, so "pw\0" would pass for "pw", and a
// lone surrogate is hashed as U+FFFD, so two different strings would pass for one.
const untypeable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Checks an email and password. Throttled by progressive delays (SIGN_IN_THROTTLE: per account and client,
 * per client, and an account-wide ceiling) before the password is looked at, so guessing is slowed even
 * with the right password, yet nobody can keep another person out. The caller creates the session on
 * success. `client` is the client's address, null when unknown. An attempt is reserved (checked and recorded
 * in one step) before the password is checked; a failure is stamped when it is answered (the clock is read
 * again after the password check), so a wait runs from the answer, not the request.
 */
export async function signIn(
  db: Db,
  email: string,
  password: string,
  client: string | null,
  clock: () => Date = () => new Date(),
): Promise<SignInResult> {
  const now = clock();
  const normalized = normalizeEmail(email).replace(new RegExp(untypeable.source, 'g'), '\uFFFD');
  const nameable = normalized === normalizeEmail(email);
  // Reserved before the password is looked at, as a failure until it proves otherwise: parallel attempts
  // cannot all pass the check before any of them is recorded.
  const reserved = await reserveSignInAttempt(db, normalized, client, now);
  if (!reserved.ok) {
    return { ok: false, error: 'throttled', retryAfterSeconds: Math.max(1, Math.ceil((reserved.until.getTime() - now.getTime()) / 1000)) };
  }

  const found = nameable ? await findUserCredentials(db, normalized) : null;
  const verified = password.length <= PASSWORD_MAX_LENGTH && (await verifyPassword(password, found?.passwordHash ?? DUMMY_HASH));
  const passwordOk = verified && !untypeable.test(password);
  if (!found || !passwordOk || found.user.disabledAt) {
    await settleSignInFailure(db, reserved.id, clock());
    return { ok: false, error: 'invalid_credentials' };
  }

  await clearSignInFailures(db, normalized, client);
  if (needsRehash(found.passwordHash)) {
    // The cost parameters were raised since this password was set: upgrade while we know the password.
    await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [found.user.id, await hashPassword(password)]);
  }
  return { ok: true, user: found.user };
}
