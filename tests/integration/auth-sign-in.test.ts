import { describe, expect, it } from 'vitest';
import { hashPassword } from '@/server/auth/passwords';
import { signIn } from '@/server/auth/sign-in';
import { MAX_FAILURES_PER_EMAIL, MAX_FAILURES_PER_IP } from '@/server/auth/sign-in-throttle';
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
    expect(await signIn(t.db, ' SAM@example.com ', PASSWORD, '192.0.2.1', T0)).toEqual({ ok: true, user: u });
  });

  it('gives one answer for a wrong password, an unknown email and a disabled account', async () => {
    await user(t.db);
    await user(t.db, 'off@example.com');
    await disableUser(t.db, 'off@example.com');
    const refused = { ok: false, error: 'invalid_credentials' };
    expect(await signIn(t.db, 'sam@example.com', 'wrong-password!', '192.0.2.1', T0)).toEqual(refused);
    expect(await signIn(t.db, 'nobody@example.com', PASSWORD, '192.0.2.1', T0)).toEqual(refused);
    expect(await signIn(t.db, 'off@example.com', PASSWORD, '192.0.2.1', T0)).toEqual(refused);
  });

  it('checks a password even for an unknown email, so timing does not reveal accounts', async () => {
    await user(t.db);
    const time = async (email: string) => {
      const start = performance.now();
      await signIn(t.db, email, 'wrong-password!', null, T0);
      return performance.now() - start;
    };
    const known = Math.min(await time('sam@example.com'), await time('sam@example.com'));
    const unknown = Math.min(await time('ghost@example.com'), await time('ghost@example.com'));
    // Both run one scrypt (tens of ms); a skipped hash would be ~100x faster.
    expect(unknown).toBeGreaterThan(known / 3);
  });

  it(`throttles an email after ${MAX_FAILURES_PER_EMAIL} failures in 15 minutes, even with the right password`, async () => {
    await user(t.db);
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) {
      expect(await signIn(t.db, 'sam@example.com', 'wrong-password!', `198.51.100.${i}`, at(i))).toMatchObject({ error: 'invalid_credentials' });
    }
    // Five failures at minutes 0..4: the first leaves the window at minute 15.
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '203.0.113.9', at(5))).toEqual({ ok: false, error: 'throttled', retryAfterSeconds: 600 });
    expect(await signIn(t.db, 'SAM@example.com', PASSWORD, null, at(14.5))).toEqual({ ok: false, error: 'throttled', retryAfterSeconds: 30 });
    // Throttled attempts are not counted, so the lock does not extend itself.
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '203.0.113.9', at(15))).toMatchObject({ ok: true });
  });

  it('a successful sign-in clears the email’s failures', async () => {
    await user(t.db);
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL - 1; i++) await signIn(t.db, 'sam@example.com', 'wrong-password!', '192.0.2.1', at(0));
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.1', at(1))).toMatchObject({ ok: true });
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL - 1; i++) await signIn(t.db, 'sam@example.com', 'wrong-password!', '192.0.2.1', at(2));
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.1', at(3))).toMatchObject({ ok: true });
  });

  it(`throttles an IP after ${MAX_FAILURES_PER_IP} failures in 15 minutes, across emails`, async () => {
    await user(t.db);
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) {
      await signIn(t.db, `guess${i}@example.com`, 'wrong-password!', '192.0.2.66', at(i * 0.5));
    }
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.66', at(10))).toEqual({ ok: false, error: 'throttled', retryAfterSeconds: 300 });
    // Another IP, and the same email, are unaffected.
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.67', at(10))).toMatchObject({ ok: true });
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, '192.0.2.66', at(15))).toMatchObject({ ok: true });
  });

  it('without an IP only the email limit applies', async () => {
    await user(t.db);
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) await signIn(t.db, `guess${i}@example.com`, 'wrong-password!', null, at(0));
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, null, at(1))).toMatchObject({ ok: true });
  });

  it('upgrades a hash made with weaker parameters on sign-in', async () => {
    const u = await user(t.db);
    await t.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [u.id, await hashPassword(PASSWORD, { N: 1024, r: 8, p: 1 })]);
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, null, T0)).toMatchObject({ ok: true });
    const row = await t.db.one<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [u.id]);
    expect(row?.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await signIn(t.db, 'sam@example.com', PASSWORD, null, T0)).toMatchObject({ ok: true });
  });
});
