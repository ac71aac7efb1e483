import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { SessionView } from '@/lib/bff/auth';
import { SIGN_IN_THROTTLE, disableUser, sealSessionId, sessionCookieName, unsealSessionId } from '@/server/auth';
import { DEFAULT_IDLE_MINUTES } from '@/server/env/defaults';
import type { RunningSandbox } from '@/server/sandbox/server';
import type { SqlParam } from '@/server/db/types';
import { SENTINEL_SESSION_SECRET } from '../support/bff-stack';
import { poller } from '../support/poller';
import { freshApplication } from './support/applications';
import { BffClient, bffDb, bffStack, invitedClient, newUser, signedIn, type Reply } from './support/bff';
import { errorOf } from './support/route-catalog';
import { KEYS, SandboxClient } from './support/sandbox';

/*
 * DESIGN.md §3, sessions: iron-session cookies (httpOnly, SameSite=Lax), absolute and idle lifetimes, and a
 * server-side record so that logout, disabling a user and revoking an invitation take effect at once — on
 * the very next request when the app itself made the change. A change made behind the app's back (another
 * process, SQL by hand) reaches the app's in-memory session cache by the database's NOTIFY on commit
 * (milliseconds): those tests check the refusal comes as soon as the announcement has arrived.
 */

const COOKIE = sessionCookieName(false);
const MINUTE = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms);

let applicationId: string;
let staff: BffClient;

beforeAll(async () => {
  applicationId = await freshApplication(new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full), 'Session Test Ltd');
  staff = (await signedIn('staff')).client;
});

const appPath = () => `/api/applications/${applicationId}`;

function expectUnauthenticated(r: Reply, where: string) {
  expect(r.status, `${where}: ${r.text.slice(0, 300)}`).toBe(401);
  expect(errorOf(r)?.code, where).toBe('unauthenticated');
}

const announced = poller({ timeoutMs: 2_000, everyMs: 5 });
/** Refused once the database's announcement of an out-of-band change has reached the app. */
async function refusedOnceAnnounced(client: BffClient, where: string) {
  expectUnauthenticated(await announced(() => client.get(appPath()), (r) => r.status === 401, where), where);
}

/** The session as the BFF sees it now; null when it refuses the cookie. */
async function sessionOf(client: BffClient) {
  const r = await client.get<{ session: unknown }>('/api/auth/session');
  expect(r.status).toBe(200);
  return r.body.session === null ? null : SessionView.parse(r.body.session);
}

async function updateSessions(set: string, where: string, values: SqlParam[]) {
  const rows = await (await bffDb()).query(`UPDATE sessions SET ${set} WHERE ${where} RETURNING id`, values);
  expect(rows.length, 'the UPDATE hit the session').toBeGreaterThan(0);
}

/** A Set-Cookie header split into its name, value and attributes (names lower-cased). */
function parseSetCookie(header: string) {
  const [pair, ...rest] = header.split(';').map((s) => s.trim());
  const i = pair!.indexOf('=');
  const attributes = new Map<string, string>();
  for (const a of rest) {
    const j = a.indexOf('=');
    attributes.set((j < 0 ? a : a.slice(0, j)).toLowerCase(), j < 0 ? '' : a.slice(j + 1));
  }
  return { name: pair!.slice(0, i), value: pair!.slice(i + 1), attributes };
}

function sessionCookieOf(r: Reply) {
  const cookies = r.headers.getSetCookie().map(parseSetCookie);
  expect(cookies.map((c) => c.name)).toEqual([COOKIE]);
  return cookies[0]!;
}

describe('a request without a live session is refused', () => {
  it('signed out: 401 on guarded routes, and no session', async () => {
    const anonymous = new BffClient();
    expectUnauthenticated(await anonymous.get(appPath()), 'read an application');
    expectUnauthenticated(await anonymous.get('/api/businesses'), 'list businesses');
    expectUnauthenticated(await anonymous.patch(`${appPath()}/answers`, { body: {} }), 'write answers');
    expect(await sessionOf(anonymous)).toBeNull();
  });

  it(`idle for more than ${DEFAULT_IDLE_MINUTES} minutes: refused at the next request`, async () => {
    const { client, user } = await signedIn('staff');
    expect((await client.get(appPath())).status).toBe(200);
    // Just inside the idle limit the session lives (and the request refreshes last_seen_at)…
    await updateSessions('last_seen_at = $2', 'user_id = $1', [user.id, ago((DEFAULT_IDLE_MINUTES - 1) * MINUTE)]);
    expect((await client.get(appPath())).status).toBe(200);
    // …just past it, it is over.
    await updateSessions('last_seen_at = $2', 'user_id = $1', [user.id, ago((DEFAULT_IDLE_MINUTES + 1) * MINUTE)]);
    await refusedOnceAnnounced(client, 'after the idle timeout');
    expect(await sessionOf(client)).toBeNull();
  });

  it('past its absolute lifetime: refused at the next request, however active it is', async () => {
    const { client, user } = await signedIn('staff');
    expect((await client.get(appPath())).status).toBe(200);
    await updateSessions('absolute_expires_at = $2, last_seen_at = now()', 'user_id = $1', [user.id, ago(1000)]);
    await refusedOnceAnnounced(client, 'after the absolute lifetime');
    expect(await sessionOf(client)).toBeNull();
  });

  it('a disabled user: refused at the next request', async () => {
    const { client, email } = await signedIn('staff');
    expect((await client.get(appPath())).status).toBe(200);
    expect(await disableUser(await bffDb(), email)).not.toBeNull();
    // disableUser from this process, as the users CLI does from its own.
    await refusedOnceAnnounced(client, 'after disableUser');
    expect(await sessionOf(client)).toBeNull();
    // And the account cannot sign in again (the same answer as a wrong password).
    const again = await new BffClient().post('/api/auth/sign-in', {
      body: { email, password: 'whatever-it-was' },
      headers: { 'X-Forwarded-For': testIp() },
    });
    expect(again.status).toBe(401);
  });

  it('a disabled user whose session record was left alone: the per-request check alone refuses it', async () => {
    const { client, user } = await signedIn('reviewer');
    expect((await client.get(appPath())).status).toBe(200);
    await (await bffDb()).query('UPDATE users SET disabled_at = now() WHERE id = $1', [user.id]);
    await refusedOnceAnnounced(client, 'with users.disabled_at set');
  });

  it('signed out: the old cookie, replayed, is refused', async () => {
    const { client } = await signedIn('staff');
    expect((await client.get(appPath())).status).toBe(200);
    const saved = new Map(client.cookies);
    const out = await client.post('/api/auth/sign-out');
    expect(out.status).toBe(204);
    const cleared = sessionCookieOf(out);
    expect(cleared.value).toBe('');
    expect(cleared.attributes.get('max-age')).toBe('0');
    expect(client.cookies.size).toBe(0);

    const replay = new BffClient();
    replay.cookies = saved;
    expectUnauthenticated(await replay.get(appPath()), 'the cookie of a signed-out session');
    expect(await sessionOf(replay)).toBeNull();
  });

  it('a revoked invitation: its client is refused at the next request, and the link no longer opens', async () => {
    const { client, invitationId, link } = await invitedClient(staff, applicationId);
    expect((await client.get(appPath())).status).toBe(200);
    const revoked = await staff.post(`/api/invitations/${invitationId}/revoke`);
    expect(revoked.status, revoked.text).toBe(200);
    expectUnauthenticated(await client.get(appPath()), 'after the invitation was revoked');
    expect(await sessionOf(client)).toBeNull();

    const reopened = new BffClient();
    const r = await reopened.get(new URL(link).pathname);
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/invite/invalid?reason=revoked');
    expect(reopened.cookies.size).toBe(0);
  });

  it('an invitation revoked or expired behind the session’s back: the per-request check alone refuses it', async () => {
    const db = await bffDb();
    for (const set of ['revoked_at = now()', 'expires_at = now() - interval \'1 second\'']) {
      const { client, invitationId } = await invitedClient(staff, applicationId);
      expect((await client.get(appPath())).status).toBe(200);
      await db.query(`UPDATE invitations SET ${set} WHERE id = $1`, [invitationId]);
      await refusedOnceAnnounced(client, `with invitations.${set}`);
    }
  });
});

describe('a cookie the BFF did not issue is refused', () => {
  it('tampered, forged with another secret, a bare session id, or under another name: 401', async () => {
    const { client } = await signedIn('staff');
    const seal = client.cookies.get(COOKIE)!;
    const settings = { password: SENTINEL_SESSION_SECRET, appOrigin: bffStack().url, maxAgeSeconds: 3600 };
    const sid = await unsealSessionId(seal, settings);
    expect(sid).toMatch(/\S{20,}/);

    const withCookie = async (name: string, value: string) => {
      const c = new BffClient();
      c.cookies.set(name, value);
      return c.get(appPath());
    };
    // The control: the same session id sealed with the right secret is accepted.
    expect((await withCookie(COOKIE, await sealSessionId(sid!, settings))).status).toBe(200);

    const middle = Math.floor(seal.length / 2);
    const flipped = `${seal.slice(0, middle)}${seal[middle] === 'A' ? 'B' : 'A'}${seal.slice(middle + 1)}`;
    const forged = await sealSessionId(sid!, { ...settings, password: `another-secret-${randomBytes(16).toString('hex')}` });
    for (const [what, name, value] of [
      ['a flipped character', COOKIE, flipped],
      ['a truncated seal', COOKIE, seal.slice(0, -4)],
      ['a seal made with another secret', COOKIE, forged],
      ['the bare session id', COOKIE, sid!],
      ['random bytes', COOKIE, randomBytes(48).toString('base64url')],
      ['the right seal under the __Host- name on http', sessionCookieName(true), seal],
    ] as const) {
      expectUnauthenticated(await withCookie(name, value), what);
    }
  });
});

/**
 * A documentation-range address of its own, so this file's failures count against nobody else's sign-ins.
 * The test stack trusts one proxy hop: the last entry is the client, the first one anything a client wrote.
 */
function testIp() {
  return `198.51.100.${1 + (randomBytes(1)[0]! % 254)}, 203.0.113.${1 + (randomBytes(1)[0]! % 254)}`;
}

describe('sign-in', () => {
  it(`is slowed after ${SIGN_IN_THROTTLE.pair.free} failures from one client: 429 with Retry-After, even with the right password`, async () => {
    const { email, password } = await newUser('staff');
    const headers = { 'X-Forwarded-For': testIp() };
    const browser = new BffClient();
    for (let i = 0; i < SIGN_IN_THROTTLE.pair.free; i++) {
      const r = await browser.post('/api/auth/sign-in', { body: { email, password: `wrong-${i}` }, headers });
      expect(r.status, r.text).toBe(401);
    }
    const throttled = await browser.post('/api/auth/sign-in', { body: { email, password }, headers });
    expect(throttled.status, throttled.text).toBe(429);
    expect(errorOf(throttled)?.code).toBe('too_many_attempts');
    const retryAfter = Number(throttled.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_THROTTLE.pair.maxMs / 1000);
    expect(throttled.headers.getSetCookie()).toEqual([]);
    expect(browser.cookies.size).toBe(0);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/, and on http as intake_session without Secure', async () => {
    const { email, password } = await newUser('reviewer');
    const browser = new BffClient();
    const r = await browser.post('/api/auth/sign-in', { body: { email, password }, headers: { 'X-Forwarded-For': testIp() } });
    expect(r.status, r.text).toBe(200);
    expect(bffStack().url.startsWith('http://')).toBe(true);
    const cookie = sessionCookieOf(r);
    expect(cookie.name).toBe('intake_session');
    expect(cookie.attributes.has('httponly')).toBe(true);
    expect(cookie.attributes.get('samesite')?.toLowerCase()).toBe('lax');
    expect(cookie.attributes.get('path')).toBe('/');
    expect(cookie.attributes.has('secure')).toBe(false);
    expect(cookie.attributes.has('domain')).toBe(false);
    expect(Number(cookie.attributes.get('max-age'))).toBeGreaterThan(0);
    // The cookie holds a seal, not the session id the server keys its record by.
    const sid = await unsealSessionId(cookie.value, { password: SENTINEL_SESSION_SECRET, appOrigin: bffStack().url, maxAgeSeconds: 3600 });
    expect(sid).not.toBeNull();
    expect(cookie.value).not.toContain(sid!);
  });

  it('gives the client’s session cookie, set by an invitation link, the same attributes', async () => {
    const created = await staff.post(`/api/applications/${applicationId}/invitations`, { body: {} });
    const link = new URL((created.body as { link: string }).link);
    const r = await new BffClient().get(link.pathname);
    expect(r.status).toBe(303);
    const cookie = sessionCookieOf(r);
    expect(cookie.attributes.has('httponly')).toBe(true);
    expect(cookie.attributes.get('samesite')?.toLowerCase()).toBe('lax');
    expect(cookie.attributes.get('path')).toBe('/');
    expect(cookie.attributes.has('secure')).toBe(false);
  });
});
