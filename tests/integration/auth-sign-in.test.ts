import { describe, expect, it } from 'vitest';
import { hashPassword } from '@/server/auth/passwords';
import { signIn } from '@/server/auth/sign-in';
import { SIGN_IN_THROTTLE, delayAfter, recordSignInFailure } from '@/server/auth/sign-in-throttle';
import { createUser, disableUser } from '@/server/auth/users';
import type { Db } from '@/server/db/types';
import { testDrivers, useTestDb } from '@/tests/support/postgres';

const T0 = new Date('2030-04-01T12:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const PASSWORD = 'the-right-password';

async function user(db: Db, email = 'sam@example.com') {
  return createUser(db, { email, name: 'Sam', role: 'staff', password: PASSWORD }, T0);
}

describe.each(testDrivers())('sign-in on %s', (driver) => {
  const t = useTestDb(driver);

  it('signs in with the right password, whatever the email’s case', async () => {
    const u = await user(t.db);
    expect(await signIn(t.db, ' SAM@example.com ', PASSWORD, '192.0.2.1', () => T0)).toEqual({ ok: true, user: u });
  });

  it('gives one answer for a wrong password, an unknown email and a disabled account', async () => {
    await user(t.db);
    await user(t.db, 'off@example.com');
    await disableUser(t.db, 'off@example.com');
    const refused = { ok: false, error: 'invalid_credentials' };
    expect(await signIn(t.db, 'sam@example.com', 'wrong-password!', '192.0.2.1', () => T0)).toEqual(refused);
    expect(await signIn(t.db, 'nobody@example.com', PASSWORD, '192.0.2.1', () => T0)).toEqual(refused);
    expect(await signIn(t.db, 'off@example.com', PASSWORD, '192.0.2.1', () => T0)).toEqual(refused);
  });

  it('checks a password even for an unknown email, so timing does not reveal accounts', async () => {
    await user(t.db);
    const time = async (email: string) => {
      const start = performance.now();
      await signIn(t.db, email, 'wrong-password!', null, () => T0);
      return performance.now() - start;
    };
    const known = Math.min(await time('sam@example.com'), await time('sam@example.com'));
    const unknown = Math.min(await time('ghost@example.com'), await time('ghost@example.com'));
    // Both run one scrypt (tens of ms); a skipped hash would be ~100x faster.
    expect(unknown).toBeGreaterThan(known / 3);
  });

  const { pair, client, account } = SIGN_IN_THROTTLE;
  const fail = (email: string, ip: string | null, when: Date) => signIn(t.db, email, 'wrong-password!', ip, () => when);
  const sec = (s: number) => new Date(T0.getTime() + s * 1000);
  /** Failures recorded as signIn records them, without hashing a password for each (many of them). */
  async function failures(n: number, ip: (i: number) => string, when: Date) {
    for (let i = 0; i < n; i++) await recordSignInFailure(t.db, 'sam@example.com', ip(i), when);
  }

  it('lets parallel sign-ins from one client through when an attempt begun later was reserved first', async () => {
    await user(t.db);
    await user(t.db, 'kim@example.com');
    // Kim's attempt began a moment after Sam's but took the reservation first (it is stamped later than Sam's now).
    await recordSignInFailure(t.db, 'kim@example.com', '192.0.2.1', sec(0.05));
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.1', () => T0)).toEqual({ ok: true, user: expect.objectContaining({ email: 'sam@example.com' }) });
  });

  it(`slows one account from one client after ${pair.free} failures: 1, 2, 4 … s, even for the right password`, async () => {
    await user(t.db);
    for (let i = 0; i < pair.free; i++) expect(await fail('sam@example.com', '192.0.2.1', T0)).toMatchObject({ error: 'invalid_credentials' });
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.1', () => T0)).toEqual({ ok: false, error: 'throttled', retryAfterSeconds: 1 });
    expect(await fail('sam@example.com', '192.0.2.1', sec(1))).toMatchObject({ error: 'invalid_credentials' });
    expect(await signIn(t.db, 'SAM@example.com', PASSWORD, '192.0.2.1', () => sec(1.5))).toEqual({ ok: false, error: 'throttled', retryAfterSeconds: 2 });
    // Throttled attempts are not counted, so the wait does not extend itself; once over, the right password works.
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.1', () => sec(3))).toMatchObject({ ok: true });
  });

  it(`checks and records an attempt in one step: of 15 wrong passwords sent at once, ${pair.free} are answered, the rest wait`, async () => {
    await user(t.db);
    const results = await Promise.all(Array.from({ length: 15 }, (_, i) => fail('sam@example.com', '192.0.2.1', sec(0)).then((r) => ({ i, r }))));
    const refused = results.filter(({ r }) => !r.ok && r.error === 'invalid_credentials');
    const throttled = results.filter(({ r }) => !r.ok && r.error === 'throttled');
    expect(refused).toHaveLength(pair.free);
    expect(throttled).toHaveLength(15 - pair.free);
    // Only the attempts that went ahead are failures on record.
    const rows = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM sign_in_attempts WHERE email = 'sam@example.com'");
    expect(rows[0]!.n).toBe(pair.free);
  });

  it('never makes anyone wait longer than the ceiling, however many failures', async () => {
    await user(t.db);
    let now = 0;
    for (let i = 0; i < 12; i++) {
      expect(await fail('sam@example.com', '192.0.2.1', sec(now))).toMatchObject({ error: 'invalid_credentials' });
      now += delay(i + 1);
    }
    const wait = await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.1', () => sec(now - delay(12)));
    expect(wait).toEqual({ ok: false, error: 'throttled', retryAfterSeconds: pair.maxMs / 1000 });
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.1', () => sec(now))).toMatchObject({ ok: true });

    function delay(failures: number) {
      return delayAfter(failures, pair) / 1000;
    }
  });

  it('cannot be turned into a lock-out: failures from other clients leave a fresh client alone', async () => {
    await user(t.db);
    // Someone who knows the email guesses from one address for ten minutes, then from ninety more at once.
    for (let i = 0; i < 10; i++) await fail('sam@example.com', '198.51.100.7', sec(i * 61));
    await failures(90, (i) => `203.0.113.${i}`, sec(620));
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.44', () => sec(620))).toMatchObject({ ok: true });
  });

  it('holds a client that failed on a much-guessed account for at most the account ceiling', async () => {
    await user(t.db);
    await failures(40, (i) => `203.0.113.${i}`, T0);
    // One failure of its own is enough for the account's count to reach this client, capped at the ceiling.
    await fail('sam@example.com', '192.0.2.5', sec(1));
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.5', () => sec(1))).toEqual({
      ok: false,
      error: 'throttled',
      retryAfterSeconds: account.maxMs / 1000,
    });
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.5', () => sec(1 + account.maxMs / 1000))).toMatchObject({ ok: true });
  });

  it('a successful sign-in clears that client’s failures for the account', async () => {
    await user(t.db);
    for (let i = 0; i < pair.free - 1; i++) await fail('sam@example.com', '192.0.2.1', T0);
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.1', () => sec(1))).toMatchObject({ ok: true });
    for (let i = 0; i < pair.free - 1; i++) await fail('sam@example.com', '192.0.2.1', sec(2));
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.1', () => sec(3))).toMatchObject({ ok: true });
  });

  it(`slows a client after ${client.free} failures across accounts; other clients are unaffected`, async () => {
    await user(t.db);
    for (let i = 0; i < client.free; i++) await fail(`guess${i}@example.com`, '192.0.2.66', T0);
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.66', () => T0)).toEqual({ ok: false, error: 'throttled', retryAfterSeconds: 1 });
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.67', () => T0)).toMatchObject({ ok: true });
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.66', () => sec(1))).toMatchObject({ ok: true });
  });

  it('forgets failures after 15 minutes', async () => {
    await user(t.db);
    await failures(12, () => '192.0.2.1', T0);
    await fail('sam@example.com', '192.0.2.1', at(14));
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.1', () => at(14))).toEqual({ ok: false, error: 'throttled', retryAfterSeconds: 60 });
    // At minute 16 only the failure of minute 14 is left: one more is still within the free tries.
    await fail('sam@example.com', '192.0.2.1', at(16));
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.1', () => at(16))).toMatchObject({ ok: true });
  });

  it('answers an email with NUL or a lone surrogate like an unknown one, and still counts it', async () => {
    await user(t.db);
    for (const email of ['sam\u0000@example.com', 'sam@example.com\u0000', '\uD800sam@example.com', 'sam@exa\uDC00mple.com']) {
      expect(await signIn(t.db, email, PASSWORD, '192.0.2.9', () => T0)).toEqual({ ok: false, error: 'invalid_credentials' });
    }
    // The right password with a NUL after it would pass scrypt (HMAC pads keys with zeros), or with a lone
    // surrogate, the right password with U+FFFD: both are refused as the wrong password they are.
    for (const password of [`${PASSWORD}\u0000`, `${PASSWORD}\u0000\u0000`, `${PASSWORD}\uD800`]) {
      expect(await signIn(t.db, 'sam@example.com', password, '192.0.2.11', () => T0)).toEqual({ ok: false, error: 'invalid_credentials' });
    }
    const kept = await t.db.query<{ email: string }>("SELECT email FROM sign_in_attempts WHERE ip = '192.0.2.9' ORDER BY id");
    expect(kept.map((r) => r.email)).toContain('sam\uFFFD@example.com');
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.10', () => T0)).toMatchObject({ ok: true });
  });

  it('upgrades a hash made with weaker parameters on sign-in', async () => {
    const u = await user(t.db);
    await t.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [u.id, await hashPassword(PASSWORD, { N: 1024, r: 8, p: 1 })]);
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, null, () => T0)).toMatchObject({ ok: true });
    const row = await t.db.one<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [u.id]);
    expect(row?.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, null, () => T0)).toMatchObject({ ok: true });
  });
});
