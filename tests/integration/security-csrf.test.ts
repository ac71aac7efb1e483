import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswersPageView } from '@/lib/bff/applications';
import { BffClient, bffDb, signedIn, type Reply } from './support/bff';
import {
  callPath,
  catalogCalls,
  errorOf,
  routeCatalog,
  routeFixtures,
  segmentValues,
  type CatalogCall,
  type RouteFixtures,
} from './support/route-catalog';
import { HEADER_VARIANTS } from './support/header-variants';

/*
 * DESIGN.md §3: browser-facing routes answer JSON only with `Cache-Control: private, no-store`, and every
 * non-GET (uploads too) needs `X-CSRF: 1` plus an Origin / Sec-Fetch-Site that says it comes from the app
 * itself. Each refusal below is made with a live staff session, so nothing but the CSRF check stands in
 * the way, and its code says the CSRF check is what refused.
 */

const CALLS = catalogCalls(routeCatalog());
/** Server-to-server routes: no browser, no cookie, a signature instead (bff-webhooks covers them). */
const SERVER_TO_SERVER = new Set(['POST /api/webhooks/portal']);
/**
 * One-click unsubscribe (RFC 8058): a mail provider posts it with no cookie, Origin or X-CSRF; the signed
 * token in its path is the whole proof, and a forged or altered one changes nothing (messages-reminders).
 */
const TOKEN_ONLY = new Set(['POST /api/unsubscribe/[token]']);
const WRITES = CALLS.filter((c) => c.method !== 'GET' && c.method !== 'HEAD' && c.method !== 'OPTIONS' && !SERVER_TO_SERVER.has(c.key) && !TOKEN_ONLY.has(c.key));

let f: RouteFixtures;
let staff: BffClient;

/** Every reply of this file, for the header checks at the end. */
const sampled: Array<{ path: string; reply: Reply }> = [];
async function track(path: string, reply: Promise<Reply>) {
  const r = await reply;
  sampled.push({ path, reply: r });
  return r;
}

beforeAll(async () => {
  staff = (await signedIn('staff')).client;
  f = await routeFixtures(staff);
}, 120_000);

const pathFor = (call: CatalogCall) => callPath(call, segmentValues(call.route, f, f.b));

/** A write with exactly these headers besides the session cookie: no help from BffClient's CSRF defaults. */
function rawWrite(client: BffClient, call: CatalogCall, headers: Record<string, string>) {
  return client.call(call.method, pathFor(call), { body: call.method === 'DELETE' ? undefined : {}, headers, noCsrf: true });
}

function expectCsrfRefusal(r: Reply, where: string) {
  expect(r.status, `${where}: ${r.text.slice(0, 300)}`).toBe(403);
  expect(errorOf(r), where).toEqual({ code: 'csrf_failed', request_id: null });
}

describe('CSRF on every non-GET route', () => {
  it('covers the writes of the catalog', () => {
    expect(WRITES.length).toBeGreaterThanOrEqual(25);
    expect(WRITES.map((c) => c.key)).toEqual(
      expect.arrayContaining([
        'POST /api/auth/sign-in',
        'POST /api/auth/sign-out',
        'POST /api/applications/[applicationId]/files',
        'POST /api/applications/[applicationId]/autofill/preparation/files',
        'POST /api/businesses/[businessId]/uploads/[uploadId]',
        'DELETE /api/applications/[applicationId]/files/[fileId]',
      ]),
    );
  });

  it('refuses a write without X-CSRF: 1 (403 csrf_failed)', async () => {
    for (const call of WRITES) {
      const path = pathFor(call);
      expectCsrfRefusal(await track(path, rawWrite(staff, call, { Origin: staff.base })), `${call.key} without X-CSRF`);
      expectCsrfRefusal(await track(path, rawWrite(staff, call, { Origin: staff.base, 'X-CSRF': '0' })), `${call.key} with X-CSRF: 0`);
    }
  });

  it('refuses a write whose Origin is another site, another port, or null', async () => {
    const own = new URL(staff.base);
    for (const call of WRITES) {
      for (const origin of ['https://evil.example', `${own.protocol}//${own.hostname}:1`, 'null']) {
        expectCsrfRefusal(await track(pathFor(call), rawWrite(staff, call, { 'X-CSRF': '1', Origin: origin })), `${call.key} from Origin ${origin}`);
      }
    }
  });

  it('refuses the same writes whatever else they carry: a file name, forged forwarding headers', { timeout: 180_000 }, async () => {
    for (const call of WRITES) {
      for (const [variant, headers] of HEADER_VARIANTS) {
        const path = pathFor(call);
        expectCsrfRefusal(await track(path, rawWrite(staff, call, { ...headers, Origin: staff.base })), `${call.key} without X-CSRF, ${variant}`);
        expectCsrfRefusal(await track(path, rawWrite(staff, call, { ...headers, 'X-CSRF': '1', Origin: 'https://evil.example' })), `${call.key} from another site, ${variant}`);
        // The forwarding headers name evil.example as the host: that is still not this app's origin.
        expectCsrfRefusal(await track(path, rawWrite(staff, call, { ...headers, 'X-CSRF': '1', Origin: 'http://evil.example' })), `${call.key} from the forwarded host, ${variant}`);
      }
    }
  });

  it('refuses a write whose Sec-Fetch-Site is cross-site or same-site, even with the right Origin', async () => {
    for (const call of WRITES) {
      for (const site of ['cross-site', 'same-site']) {
        const headers = { 'X-CSRF': '1', Origin: staff.base, 'Sec-Fetch-Site': site };
        expectCsrfRefusal(await track(pathFor(call), rawWrite(staff, call, headers)), `${call.key} with Sec-Fetch-Site: ${site}`);
      }
    }
  });

  it('lets the same writes past the CSRF check when they carry what the app sends (so the refusals above are CSRF’s)', async () => {
    const anonymous = new BffClient();
    for (const call of WRITES) {
      const headers = { 'X-CSRF': '1', Origin: anonymous.base, 'Sec-Fetch-Site': 'same-origin' };
      const r = await track(pathFor(call), rawWrite(anonymous, call, headers));
      expect(errorOf(r)?.code, `${call.key}: ${r.text.slice(0, 200)}`).not.toBe('csrf_failed');
      expect(r.status).not.toBe(403);
    }
  });

  it('grants no CORS preflight, so a cross-site page cannot add X-CSRF itself', async () => {
    for (const call of WRITES) {
      const res = await fetch(`${staff.base}${pathFor(call)}`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': call.method, 'Access-Control-Request-Headers': 'x-csrf, content-type' },
      });
      await res.body?.cancel();
      expect(res.headers.get('access-control-allow-origin'), call.key).toBeNull();
      expect(res.headers.get('access-control-allow-headers'), call.key).toBeNull();
      expect(res.headers.get('access-control-allow-credentials'), call.key).toBeNull();
    }
  });

  it('has no effect when refused: answers written without X-CSRF are not written, nor audited', async () => {
    const base = `/api/applications/${f.b.applicationId}/answers`;
    const page = AnswersPageView.parse((await track(base, staff.get(`${base}?page_size=500`))).body);
    const text = page.items.find((i) => i.value_type === 'string');
    expect(text, 'a text answer to write').toBeDefined();
    const marker = `csrf-${randomBytes(6).toString('hex')}`;
    const write = { block_key: text!.block_key, schema_key: text!.schema_key, field_key: text!.field_key, value: marker };
    const r = await track(base, staff.patch(base, { ifMatch: page.etag, body: { answers_revision: page.answers_revision, answers: [write] }, noCsrf: true }));
    expectCsrfRefusal(r, 'PATCH answers without X-CSRF');

    const after = AnswersPageView.parse((await track(base, staff.get(`${base}?page_size=500`))).body);
    expect(after.answers_revision).toBe(page.answers_revision);
    expect(JSON.stringify(after.items)).not.toContain(marker);
    const audited = await (await bffDb()).query(`SELECT id FROM audit_log WHERE operation = 'answers.update' AND application_id = $1`, [f.b.applicationId]);
    expect(audited).toEqual([]);
  });
});

describe('every reply is private JSON', () => {
  it('samples every GET route as staff too', async () => {
    for (const call of CALLS.filter((c) => c.method === 'GET')) {
      const path = pathFor(call);
      await track(path, staff.get(path));
    }
  });

  afterAll(() => {
    expect(sampled.length).toBeGreaterThan(200);
    for (const { path, reply } of sampled) {
      const where = `${path} → ${reply.status}`;
      expect(reply.headers.get('cache-control'), where).toBe('private, no-store');
      expect(reply.headers.get('access-control-allow-origin'), where).toBeNull();
      if (!path.startsWith('/api/')) continue;
      if (reply.status === 204) {
        expect(reply.text, where).toBe('');
      } else if (reply.status === 303) {
        // A link followed from a mail (unsubscribe) goes on to its page on this site.
        expect(new URL(reply.headers.get('location') ?? '').pathname, where).toMatch(/^\/unsubscribe\//);
      } else if (/\/files\/[^/]+\/download$|\/(pdf|package|csv)$/.test(path.split('?')[0]!) && reply.status === 200) {
        // The downloads (a file, the PDF, the funder ZIP, a CSV): attachments, never sniffed into something else.
        expect(reply.headers.get('x-content-type-options'), where).toBe('nosniff');
        expect(reply.headers.get('content-disposition'), where).toMatch(/^attachment; /);
      } else {
        expect(reply.headers.get('content-type'), where).toMatch(/^application\/json\b/);
        expect(() => JSON.parse(reply.text), where).not.toThrow();
      }
    }
  });
});
