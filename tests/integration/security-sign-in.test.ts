import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_THROTTLE, recordSignInFailure } from '@/server/auth/sign-in-throttle';
import { BffClient, bffDb, newUser } from './support/bff';
import { anotherInstance } from './support/another-instance';
import { errorOf } from './support/route-catalog';

/*
 * Sign-in throttling over HTTP, as an attacker meets it: it slows guessing, yet nobody can lock another person
 * out, and X-Forwarded-For is believed only as far as TRUSTED_PROXY_HOPS says. The shared test stack trusts one
 * hop (the last entry names the client); a second instance here trusts none.
 */

const octet = () => 1 + (randomBytes(1)[0]! % 254);
/** A client address of the test's own, behind the pretend proxy, with something forged in front of it. */
const via = (client: string, forged = `10.${octet()}.${octet()}.${octet()}`) => ({ 'X-Forwarded-For': `${forged}, ${client}` });
const newClient = () => `198.51.100.${octet()}`;

async function attempt(base: string | undefined, email: string, password: string, headers: Record<string, string> = {}) {
  return new BffClient(base).post('/api/auth/sign-in', { body: { email, password }, headers });
}

/** Failures as the app records them, many at once without hashing a password for each. */
async function failuresFrom(count: number, email: string) {
  const db = await bffDb();
  for (let i = 0; i < count; i++) await recordSignInFailure(db, email, `203.0.113.${i % 250}`, new Date());
}

describe('behind one trusted proxy', () => {
  it('counts one client whatever it forges to the left, and slows it with 429 and Retry-After', async () => {
    const { email, password } = await newUser('staff');
    await failuresFrom(20, email); // the account is being guessed elsewhere too: its ceiling is reached
    const client = newClient();
    const wrong = await attempt(undefined, email, 'wrong-password', via(client));
    expect(wrong.status, wrong.text).toBe(401);
    // Another forged entry, the same client: held for the account's ceiling, even with the right password.
    const held = await attempt(undefined, email, password, via(client));
    expect(held.status, held.text).toBe(429);
    expect(errorOf(held)?.code).toBe('too_many_attempts');
    const retryAfter = Number(held.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(SIGN_IN_THROTTLE.account.maxMs / 1000 - 5);
    expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_THROTTLE.account.maxMs / 1000);
    expect(held.headers.getSetCookie()).toEqual([]);
  });

  it('cannot be used to lock someone out: the right password from another client gets straight in', async () => {
    const { email, password } = await newUser('staff');
    await failuresFrom(60, email);
    const attacker = newClient();
    for (let i = 0; i < SIGN_IN_THROTTLE.pair.free; i++) await attempt(undefined, email, `guess-${i}`, via(attacker));
    const owner = await attempt(undefined, email, password, via(`192.0.2.${octet()}`));
    expect(owner.status, owner.text).toBe(200);
  });

  it.each([
    ['a NUL in the email', (e: string) => `${e}\u0000`, (p: string) => p],
    ['a lone surrogate in the email', (e: string) => `\uD800${e}`, (p: string) => p],
    ['a NUL in the password', (e: string) => e, (p: string) => `${p}\u0000`],
    ['a lone surrogate in the password', (e: string) => e, (p: string) => `${p}\uDC00`],
  ])('answers %s with 401 like any wrong sign-in, never 500', async (_what, email, password) => {
    const u = await newUser('reviewer');
    const r = await attempt(undefined, email(u.email), password(u.password), via(newClient()));
    expect(r.status, r.text).toBe(401);
    expect(errorOf(r)).toEqual({ code: 'unauthenticated', request_id: null });
  });
});

describe('attempts sent at once', () => {
  // A second instance on the same PostgreSQL, trusting the same proxy: the attempts race across processes too.
  const twin = anotherInstance({ name: 'sign-in-twin' });

  it(`let ${SIGN_IN_THROTTLE.pair.free} of 15 wrong passwords through to the password check, on one instance or two; the rest wait (429)`, async () => {
    for (const bases of [[undefined], [undefined, twin().url]] as const) {
      const { email } = await newUser('staff');
      const client = newClient();
      const replies = await Promise.all(Array.from({ length: 15 }, (_, i) => attempt(bases[i % bases.length], email, `guess-${i}`, via(client))));
      const statuses = replies.map((r) => r.status).sort();
      // Three are free; a fourth only if a busy machine took over a second (the wait after three) to reach it.
      expect(statuses.filter((s) => s === 401).length, `${bases.length} instance(s): ${statuses.join(' ')}`).toBeGreaterThanOrEqual(SIGN_IN_THROTTLE.pair.free);
      expect(statuses.filter((s) => s === 401).length, `${bases.length} instance(s): ${statuses.join(' ')}`).toBeLessThanOrEqual(SIGN_IN_THROTTLE.pair.free + 1);
      expect(statuses.filter((s) => s === 429).length + statuses.filter((s) => s === 401).length).toBe(15);
      for (const r of replies.filter((x) => x.status === 429)) expect(errorOf(r)?.code).toBe('too_many_attempts');
    }
  });
});

describe('with no proxy trusted (TRUSTED_PROXY_HOPS unset)', () => {
  const direct = anotherInstance({ name: 'direct', without: ['TRUSTED_PROXY_HOPS'] });

  it('ignores X-Forwarded-For and counts the connection’s own address', async () => {
    const { email, password } = await newUser('staff');
    for (let i = 0; i < SIGN_IN_THROTTLE.pair.free; i++) {
      const r = await attempt(direct().url, email, `wrong-${i}`, { 'X-Forwarded-For': newClient(), 'X-Real-IP': newClient() });
      expect(r.status, r.text).toBe(401);
    }
    const rows = await (await bffDb()).query<{ ip: string | null }>('SELECT ip FROM sign_in_attempts WHERE email = $1', [email]);
    expect(rows).toHaveLength(SIGN_IN_THROTTLE.pair.free);
    for (const { ip } of rows) expect(ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
    // A new forged address each time changed nothing: with the account guessed elsewhere too, the right password waits.
    await failuresFrom(20, email);
    const held = await attempt(direct().url, email, password, { 'X-Forwarded-For': newClient() });
    expect(held.status, held.text).toBe(429);
  });
});
