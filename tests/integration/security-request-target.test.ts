import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { BffErrorBody } from '@/lib/bff/errors';
import { BffClient, bffStack, signedIn } from './support/bff';
import { HEADER_VARIANTS } from './support/header-variants';
import { catalogCalls, pagePatterns, staticPagePaths } from './support/route-catalog';
import { logCaughtUp } from './support/upstream-log';

/*
 * Over HTTP against `next start`: a path the framework cannot decode is refused
 * with 400 in the documented shape before any route or page runs (it used to be a plain-text 500), and every
 * page and route carries the security headers. The routes and pages come from the app directory, so a new one
 * is covered without anyone listing it.
 */

const MALFORMED = ['%ZZ', '%C0%AE', '%E0%80', '%00', 'a%0Ab'];
const DYNAMIC = /\[(?:\.\.\.)?[^\]]+\]/g;

/** The pattern with every dynamic segment replaced by `raw` as sent (not encoded again); a static one gets it appended. */
const withSegment = (pattern: string, raw: string) => (pattern.includes('[') ? pattern.replace(DYNAMIC, raw) : `${pattern.replace(/\/$/, '')}/${raw}`);

let staff: BffClient;
beforeAll(async () => {
  staff = (await signedIn('staff')).client;
});

function expectJsonRefusal(r: { status: number; text: string; headers: Headers; body: unknown }, where: string) {
  expect(r.status, `${where}: ${r.text.slice(0, 200)}`).toBe(400);
  expect(r.headers.get('content-type'), where).toMatch(/^application\/json/);
  const { error } = BffErrorBody.parse(r.body);
  expect(error, where).toMatchObject({ code: 'invalid_request', request_id: null, details: [expect.objectContaining({ parameter: 'path' })] });
  expect(r.headers.get('cache-control'), where).toBe('private, no-store');
}

describe('a malformed path', () => {
  it('is a 400 in the JSON error shape on every route and method, signed in or not, whatever the request names', { timeout: 300_000 }, async () => {
    const calls = catalogCalls().filter((c) => c.route.pattern.startsWith('/api/'));
    expect(calls.length).toBeGreaterThan(60);
    for (const client of [new BffClient(), staff]) {
      for (const call of calls) {
        for (const raw of MALFORMED) {
          const path = withSegment(call.route.pattern, raw);
          const hasBody = call.method === 'POST' || call.method === 'PATCH' || call.method === 'PUT';
          for (const [variant, headers] of HEADER_VARIANTS) {
            expectJsonRefusal(await client.call(call.method, path, { body: hasBody ? {} : undefined, headers: { ...headers } }), `${call.method} ${path} ${variant}`);
          }
        }
      }
    }
  });

  it('is a 400 HTML page on every page (and the invitation link), signed in or not', { timeout: 120_000 }, async () => {
    const pages = [...pagePatterns(), '/invite/[token]'];
    expect(pages.length).toBeGreaterThan(10);
    for (const client of [new BffClient(), staff]) {
      for (const page of pages) {
        for (const raw of MALFORMED) {
          const path = withSegment(page, raw);
          const r = await client.call('GET', path, { headers: { Accept: 'text/html', 'X-Filename': 'a.pdf' } });
          expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(400);
          expect(r.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
          expect(r.text, path).toContain('<h1>This address is not valid</h1>');
          expect(r.text, path).toContain('<html lang="en">');
          expect(r.headers.get('x-frame-options'), path).toBe('DENY');
          // In the app's look (its header and its way home), its one stylesheet allowed by this response's nonce.
          expect(r.text, path).toContain('<header class="app-header"><a class="app-name" href="/">Intake</a></header>');
          const nonce = /<style nonce="([^"]+)">/.exec(r.text)?.[1];
          expect(nonce, path).toBeDefined();
          expect(r.headers.get('content-security-policy'), path).toBe(`default-src 'none'; style-src 'nonce-${nonce}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`);
        }
      }
    }
  });

  it('is logged once per refusal with the path as sent, and no header', async () => {
    const marker = `%ZZmarker${Date.now()}`;
    const r = await staff.get(`/api/deals/${marker}`, { headers: { 'X-Secret-Probe': 'do-not-log-me' } });
    expect(r.status).toBe(400);
    // Counted once a line logged after the refusal is in the file (the server writes its log asynchronously).
    await logCaughtUp(staff);
    const log = readFileSync(bffStack().logFile, 'utf8');
    const lines = log.split('\n').filter((l) => l.includes(marker));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', msg: 'malformed request refused', method: 'GET', path: `/api/deals/${marker}`, parameter: 'path' });
    expect(lines[0]).not.toContain('do-not-log-me');
    expect(lines[0]).not.toContain(staff.cookieHeader().split('=')[1]!.slice(0, 16));
  });

  it('leaves a well-formed encoded segment to the route (a 400 of its own for a bad id, a 404 for an unknown one)', async () => {
    expect((await staff.get('/api/deals/%20not-an-id')).status).toBe(400);
    expect((await staff.get('/api/deals/deal_doesnotexist1')).status).toBe(404);
  });

  it('takes a malformed escape in the query literally, for the route’s own schema to refuse (never a 500)', async () => {
    const r = await staff.get('/api/deals?business_id=%ZZ');
    expect(r.status, r.text).toBe(400);
    expect(BffErrorBody.parse(r.body).error.code).toBe('invalid_request');
  });
});

describe('a body the proxy would hold', () => {
  // Next.js holds the body of a request its proxy sees and cuts it at 10 MB; uploads skip the proxy by naming
  // their file (X-Filename, see bff-files for the streaming). A large or streamed body without it is refused,
  // never passed on cut short.
  const send = (body: BodyInit, headers: Record<string, string> = {}) => {
    const init: RequestInit & { duplex?: 'half' } = {
      method: 'POST',
      headers: { Cookie: staff.cookieHeader(), 'X-CSRF': '1', Origin: staff.base, 'Content-Type': 'application/pdf', ...headers },
      body,
    };
    if (body instanceof ReadableStream) init.duplex = 'half';
    return fetch(`${staff.base}/api/applications/ciappl_brightpath/files?block_key=bank_statements&schema_key=bank_statements&field_key=files`, init);
  };

  it('is refused with 400 when it is over 10 MB or of unknown length and names no file', async () => {
    const big = await send(new Uint8Array(10 * 1024 * 1024 + 1));
    expect(big.status).toBe(400);
    expect(BffErrorBody.parse(await big.json()).error.details[0]).toMatchObject({ code: 'upload_not_named', parameter: 'X-Filename' });
    const chunks = [new Uint8Array(1024)];
    const streamed = await send(new ReadableStream({ pull: (c) => (chunks.length ? c.enqueue(chunks.pop()!) : c.close()) }));
    expect(streamed.status).toBe(400);
    expect(BffErrorBody.parse(await streamed.json()).error.details[0]!.code).toBe('upload_not_named');
  });
});

describe('security headers', () => {
  const COMMON = {
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
  };

  function expectCommon(headers: Headers, where: string) {
    // An invitation or unsubscribe link carries its token in the path: it sends no Referer at all.
    const expected = /(^|\s)\/(invite|unsubscribe|api\/unsubscribe)\//.test(where) ? { ...COMMON, 'referrer-policy': 'no-referrer' } : COMMON;
    for (const [k, v] of Object.entries(expected)) expect(headers.get(k), `${where} ${k}`).toBe(v);
    expect(headers.get('permissions-policy'), where).toContain('camera=()');
    expect(headers.get('content-security-policy'), where).toContain("frame-ancestors 'none'");
    expect(headers.get('strict-transport-security'), `${where}: no HSTS over http`).toBeNull();
  }

  it('are on every page, with a fresh nonce per response that the page’s scripts carry and nothing inline-unsafe', { timeout: 120_000 }, async () => {
    const nonces = new Set<string>();
    for (const client of [new BffClient(), staff]) {
      for (const path of staticPagePaths()) {
        // A file name or forged forwarding headers changed nothing (X-Filename once took the proxy, and so these, away).
        const [, extra] = HEADER_VARIANTS[nonces.size % HEADER_VARIANTS.length]!;
        const r = await client.get(path, { headers: { Accept: 'text/html', ...extra } });
        expectCommon(r.headers, path);
        const csp = r.headers.get('content-security-policy')!;
        const script = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src '))!;
        expect(script, path).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'$/);
        expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
        const nonce = /'nonce-([^']+)'/.exec(script)![1]!;
        nonces.add(nonce);
        if (r.status === 200) {
          const scripts = [...r.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
          expect(scripts.length, path).toBeGreaterThan(0);
          for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
        }
      }
    }
    expect(nonces.size).toBe(staticPagePaths().length * 2);
  });

  it('are on every route and method, with a CSP that allows nothing to render', { timeout: 180_000 }, async () => {
    // A session of its own: one of the calls is the sign-out. The event stream is read elsewhere (it never ends).
    const { client } = await signedIn('staff');
    for (const call of catalogCalls().filter((c) => c.route.pattern.startsWith('/api/') && c.route.pattern !== '/api/events' && c.key !== 'POST /api/auth/sign-out')) {
      // 'x' is a well-formed id segment: an upload route with X-Filename is one the proxy lets by, and the route
      // wrapper must give the same headers.
      const path = call.route.pattern.replace(DYNAMIC, 'x');
      for (const [variant, headers] of HEADER_VARIANTS) {
        const r = await client.call(call.method, path, { body: call.method === 'GET' || call.method === 'DELETE' ? undefined : {}, headers: { ...headers } });
        expectCommon(r.headers, `${call.method} ${path} ${variant}`);
        expect(r.headers.get('content-security-policy'), `${call.method} ${path} ${variant}`).toMatch(/^default-src 'none'/);
      }
    }
    const out = await client.post('/api/auth/sign-out', { headers: { 'X-Filename': 'a.pdf' } });
    expectCommon(out.headers, 'POST /api/auth/sign-out');
  });

  it('add HSTS when the app is reached over https (a TLS-terminating proxy says so)', async () => {
    const r = await new BffClient().get('/sign-in', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(r.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(r.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
  });
});
