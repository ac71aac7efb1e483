import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { BffErrorBody } from '@/lib/bff/errors';
import { BffClient, bffDb, bffStack, newUser, signedIn } from './support/bff';
import { anotherInstance } from './support/another-instance';
import { recordSignInFailure, SIGN_IN_THROTTLE } from '@/server/auth/sign-in-throttle';
import { callPath, catalogCalls, errorOf, segmentValues, staffWithFixtures, type CatalogCall, type RouteFixtures } from './support/route-catalog';

/*
 * A request naming a file in X-Filename skipped proxy.ts whatever its path, so a client's
 * X-Forwarded-For became the sign-in throttle's key, any body of any size was taken in whole (200 MB to the
 * unsigned webhook receiver), and the security headers went missing. Sent here the way the attacker sent them.
 * Only the four upload routes skip the proxy now, and only after the session and CSRF checks do their bodies
 * stream; everything else meets the proxy whatever the request carries.
 */

const UPLOADS = new Set([
  'POST /api/applications/[applicationId]/files',
  'POST /api/deal-applications/[dealApplicationId]/files',
  'POST /api/applications/[applicationId]/autofill/preparation/files',
  'POST /api/businesses/[businessId]/uploads/[uploadId]',
]);

const octet = () => 1 + (randomBytes(1)[0]! % 254);
const forged = () => `10.9.${octet()}.${octet()}`;

let f: RouteFixtures;
let staff: BffClient;
beforeAll(async () => void ({ staff, f } = await staffWithFixtures()), 120_000);

const pathOf = (call: CatalogCall) => callPath(call, segmentValues(call.route, f, f.a));

/** A body of unknown length (chunked): the proxy would have to hold it whole before the route ran. */
function chunked(chunks: number, size = 1024): ReadableStream<Uint8Array> {
  let left = chunks;
  return new ReadableStream({ pull: (c) => (left-- > 0 ? c.enqueue(new Uint8Array(size)) : c.close()) });
}

/** A body that never ends: only a reply sent before the body is read can come back. */
function endless(): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull: (c) => {
      if (!sent) c.enqueue(new TextEncoder().encode('%PDF-1.4\n'));
      sent = true;
      return new Promise(() => {});
    },
  });
}

async function send(url: string, method: string, headers: Record<string, string>, body?: BodyInit, signal?: AbortSignal) {
  const init: RequestInit & { duplex?: 'half' } = { method, headers, body, signal, redirect: 'manual' };
  if (body instanceof ReadableStream) init.duplex = 'half';
  const res = await fetch(url, init);
  const text = await res.text().catch(() => '');
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, text, json };
}

describe('sign-in behind X-Filename', () => {
  // As `npm start` runs: no proxy trusted, so the connection's address is the client's.
  const direct = anotherInstance({ name: 'side-door', without: ['TRUSTED_PROXY_HOPS'] });

  it('counts the connection, not the X-Forwarded-For a client rotates, and holds the right password too', async () => {
    const { email, password } = await newUser('staff');
    const db = await bffDb();
    // The account is being guessed elsewhere too: once this client has failed, it waits out the account's ceiling.
    for (let i = 0; i < 20; i++) await recordSignInFailure(db, email, `203.0.113.${i}`, new Date());
    const attempt = (pw: string) =>
      send(`${direct().url}/api/auth/sign-in`, 'POST', {
        'Content-Type': 'application/json',
        'X-CSRF': '1',
        'X-Filename': 'a.txt',
        'X-Forwarded-For': forged(),
        'X-Real-IP': forged(),
      }, JSON.stringify({ email, password: pw }));

    expect((await attempt('guess-1')).status).toBe(401);
    // A new address each time was a new client: six guesses unthrottled, then the right one let in.
    for (let i = 2; i <= 6; i++) {
      const r = await attempt(`guess-${i}`);
      expect(r.status, r.text).toBe(429);
      expect((r.json as { error: { code: string } }).error.code).toBe('too_many_attempts');
    }
    expect((await attempt(password)).status).toBe(429);
    const rows = await db.query<{ ip: string | null }>("SELECT ip FROM sign_in_attempts WHERE email = $1 AND ip NOT LIKE '203.0.113.%'", [email]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
  });

  it('holds a trusted proxy’s word as before (the shared instance trusts one hop)', async () => {
    const { email } = await newUser('reviewer');
    const client = `198.51.100.${octet()}`;
    for (let i = 0; i < SIGN_IN_THROTTLE.pair.free; i++) {
      const r = await new BffClient().post('/api/auth/sign-in', { body: { email, password: `g-${i}` }, headers: { 'X-Filename': 'a.txt', 'X-Forwarded-For': `${forged()}, ${client}` } });
      expect(r.status).toBe(401);
    }
    const rows = await (await bffDb()).query<{ ip: string }>('SELECT ip FROM sign_in_attempts WHERE email = $1', [email]);
    expect(rows.map((r) => r.ip)).toEqual(Array(SIGN_IN_THROTTLE.pair.free).fill(client));
  });
});

describe('a body the proxy would have to hold', () => {
  it('is refused on the unsigned webhook receiver, X-Filename or not, before it is read (11 MB, and chunked)', async () => {
    const url = `${bffStack().url}/api/webhooks/portal`;
    for (const headers of [{ 'X-Filename': 'a.txt' }, {}] as Array<Record<string, string>>) {
      const big = await send(url, 'POST', { 'Content-Type': 'application/json', ...headers }, new Uint8Array(11 * 1024 * 1024));
      expect(big.status, big.text.slice(0, 200)).toBe(400);
      expect(BffErrorBody.parse(big.json).error.details[0]).toMatchObject({ code: 'upload_not_named' });
      const streamed = await send(url, 'POST', { 'Content-Type': 'application/json', ...headers }, chunked(4));
      expect(BffErrorBody.parse(streamed.json).error.details[0]!.code).toBe('upload_not_named');
    }
  });

  it('is refused on every route but the four uploads, whatever the request names', async () => {
    const writes = catalogCalls().filter((c) => c.method !== 'GET' && c.method !== 'HEAD' && c.method !== 'OPTIONS');
    expect(writes.length).toBeGreaterThan(30);
    for (const call of writes) {
      const headers = { Cookie: staff.cookieHeader(), 'X-CSRF': '1', Origin: staff.base, 'Content-Type': 'application/pdf', 'X-Filename': 'a.pdf', 'X-Forwarded-For': forged() };
      const r = await send(`${staff.base}${pathOf(call)}`, call.method, headers, chunked(2));
      const detail = (r.json as { error?: { details?: Array<{ code?: string }> } } | null)?.error?.details?.[0]?.code;
      if (UPLOADS.has(call.key)) expect(detail, `${call.key}: ${r.text.slice(0, 200)}`).not.toBe('upload_not_named');
      else expect([r.status, detail], `${call.key}: ${r.text.slice(0, 200)}`).toEqual([400, 'upload_not_named']);
    }
  });
});

describe('an upload', () => {
  const uploads = () => catalogCalls().filter((c) => UPLOADS.has(c.key));

  it('streams only once the session and the CSRF header are checked: refused before its body is read', async () => {
    expect(uploads()).toHaveLength(4);
    const reviewer = (await signedIn('reviewer')).client;
    for (const call of uploads()) {
      const url = `${staff.base}${pathOf(call)}`;
      const named = { 'Content-Type': 'application/pdf', 'X-Filename': 'statement.pdf' };
      const cases: Array<[string, Record<string, string>, number, string]> = [
        ['signed out', { ...named, 'X-CSRF': '1' }, 401, 'unauthenticated'],
        ['without X-CSRF', { ...named, Cookie: staff.cookieHeader() }, 403, 'csrf_failed'],
        ['from another origin', { ...named, Cookie: staff.cookieHeader(), 'X-CSRF': '1', Origin: 'https://evil.example' }, 403, 'csrf_failed'],
        ['as a reviewer', { ...named, Cookie: reviewer.cookieHeader(), 'X-CSRF': '1', Origin: staff.base }, 403, 'forbidden'],
      ];
      for (const [who, headers, status, code] of cases) {
        const ac = new AbortController();
        // The body never ends: a reply can only come from checks made before it is read.
        const r = await send(url, 'POST', headers, endless(), ac.signal);
        ac.abort();
        expect(r.status, `${call.key} ${who}: ${r.text.slice(0, 200)}`).toBe(status);
        expect(errorOf({ ...r, body: r.json }), `${call.key} ${who}`).toEqual({ code, request_id: null });
        expect(r.headers.get('x-frame-options'), `${call.key} ${who}`).toBe('DENY');
        expect(r.headers.get('content-security-policy'), `${call.key} ${who}`).toMatch(/^default-src 'none'/);
      }
    }
  });

  it('gets the proxy’s refusal of a control character in the query from the route itself', async () => {
    for (const call of uploads()) {
      for (const query of ['x=%00', 'x=a%0Ab']) {
        const url = `${staff.base}${pathOf(call)}${pathOf(call).includes('?') ? '&' : '?'}${query}`;
        const r = await send(url, 'POST', { Cookie: staff.cookieHeader(), 'X-CSRF': '1', Origin: staff.base, 'Content-Type': 'application/pdf', 'X-Filename': 'a.pdf' }, new Uint8Array(16));
        expect(r.status, `${call.key} ${query}: ${r.text.slice(0, 200)}`).toBe(400);
        expect(BffErrorBody.parse(r.json).error).toMatchObject({ code: 'invalid_request', details: [expect.objectContaining({ code: 'malformed_encoding', parameter: 'x' })] });
      }
    }
  });
});
