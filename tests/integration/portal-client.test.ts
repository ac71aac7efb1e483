import { inspect } from 'node:util';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiRoot,
  ApplicationContract,
  ApplicationEnvelope,
  BusinessCreateResult,
  BusinessPage,
  BusinessSummary,
} from '@/lib/portal';
import { newIdempotencyKey, portalRequest, routes, setRetryTimingForTests } from '@/server/portal';
import { newRequestContext, runInRequest } from '@/server/context/request-context';
import type { RunningSandbox } from '@/server/sandbox/server';
import { loopbackServer } from './support/loopback';
import { portalCapture } from './support/portal-capture';

/** Not shaped like a Portal key, so only masking by value (not by pattern) can keep it out of logs. */
const SENTINEL = 'SENTINEL-key-9f8e7d6c5b4a3210';
const SESSION_SECRET = 'portal-client-test-session-secret-0123456789';

// ---------------------------------------------------------------------------------------------------------
// Loopback servers that script the upstream's behaviour and record what reaches them.

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
type Script = (req: IncomingMessage, res: ServerResponse, n: number) => void;

interface Scripted {
  origin: string;
  baseUrl: string;
  seen: Seen[];
  script: Script;
  close(): Promise<void>;
}

async function scriptedServer(): Promise<Scripted> {
  const seen: Seen[] = [];
  const s: Partial<Scripted> = { seen, script: (_req, res) => json(res, 200, {}) };
  const server = await loopbackServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      s.script!(req, res, seen.length);
    });
  });
  return Object.assign(s, server) as Scripted;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_scripted_${status}`, ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

const errorBody = (code: string, message: string, details: unknown[] = []) => ({
  error: { code, message, request_id: 'req_in_body', details },
});

// ---------------------------------------------------------------------------------------------------------
// Capture every log line and every thrown error: the sentinel key must appear in none of them.

const capture = portalCapture(SENTINEL, SESSION_SECRET);
const { lines, errors, failure, configure } = capture;

const Anything = z.unknown();
const Ok = z.strictObject({ ok: z.literal(true) });

let sandbox: RunningSandbox;
let upstream: Scripted;
let foreign: Scripted;

beforeAll(async () => {
  sandbox = await capture.start('Sentinel key of the Portal client tests');
  upstream = await scriptedServer();
  foreign = await scriptedServer();
});

afterAll(async () => {
  setRetryTimingForTests(null);
  await Promise.all([capture.stop(), upstream?.close(), foreign?.close()]);
});

// ---------------------------------------------------------------------------------------------------------

describe('against the sandbox', () => {
  beforeEach(() => {
    configure(sandbox.baseUrl);
  });

  it('reads the API root with the configured key and parses it with the schema', async () => {
    const res = await portalRequest({ path: routes.apiRoot(), schema: ApiRoot });
    expect(res.status).toBe(200);
    expect(res.data.key.id).toBe('key_sentinel');
    expect(res.requestId).toMatch(/^req_[0-9a-f]{24}$/);
    expect(res.etag).toMatch(/^"/);
    expect(res.attempts).toBe(1);
  });

  it('pages with a query and follows URLs returned by reads', async () => {
    const page = await portalRequest({ path: routes.businesses(), query: { page_size: 2, cursor: undefined }, schema: BusinessPage });
    expect(page.data.items).toHaveLength(2);
    const next = await portalRequest({ path: routes.businesses(), query: { page_size: 2, cursor: page.data.next_cursor }, schema: BusinessPage });
    expect(next.data.items[0]!.id).not.toBe(page.data.items[0]!.id);
    const one = await portalRequest({ url: page.data.items[0]!.url, schema: BusinessSummary });
    expect(one.data).toEqual(page.data.items[0]);
  });

  it('reads an application, then its contract through contract_url', async () => {
    const app = await portalRequest({ path: routes.application('ciappl_harbourcafe'), schema: ApplicationEnvelope });
    const contract = await portalRequest({ url: app.data.application.contract_url, schema: ApplicationContract });
    expect(contract.data.resource.id).toBe('ciappl_harbourcafe');
    expect(contract.data.questions.length).toBeGreaterThan(0);
  });

  it('maps a 404 onto PortalError with the Request-Id and the URL', async () => {
    const e = await failure(portalRequest({ path: routes.business('biz_doesnotexist'), schema: BusinessSummary }));
    expect(e).toMatchObject({ status: 404, code: 'not_found', fromUpstream: true, method: 'GET', url: `${sandbox.baseUrl}businesses/biz_doesnotexist/` });
    expect(e.requestId).toMatch(/^req_[0-9a-f]{24}$/);
    expect(e.message.length).toBeGreaterThan(0);
  });

  it('maps a 422 with its field-level details', async () => {
    const e = await failure(
      portalRequest({ method: 'POST', path: routes.businesses(), body: { name: '' }, idempotencyKey: newIdempotencyKey(), schema: BusinessCreateResult }),
    );
    expect(e).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(e.details.length).toBeGreaterThan(0);
    expect(e.details[0]).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it('maps a 400 for an unsupported query parameter, naming it', async () => {
    const e = await failure(portalRequest({ path: routes.businesses(), query: { colour: 'blue' }, schema: BusinessPage }));
    expect(e).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(e.details).toContainEqual(expect.objectContaining({ parameter: 'colour' }));
    expect(e.url).toBe(`${sandbox.baseUrl}businesses/`); // the query string is never kept
  });

  it('maps a 412 from a stale If-Match and does not retry it', async () => {
    const app = await portalRequest({ path: routes.application('ciappl_harbourcafe'), schema: ApplicationEnvelope });
    const before = lines.length;
    const e = await failure(
      portalRequest({
        method: 'PATCH',
        url: app.data.application.answers_url,
        ifMatch: '"stale-etag"',
        body: { answers_revision: app.data.application.answers_revision ?? 0, answers: [] },
        schema: Anything,
      }),
    );
    expect(e).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect(e.requestId).toMatch(/^req_/);
    const attempts = lines.slice(before).map((l) => JSON.parse(l) as { path?: string; attempt?: number }).filter((l) => l.path?.endsWith('/answers/'));
    expect(attempts).toEqual([expect.objectContaining({ attempt: 1, status: 412 })]);
  });

  it('creates once per Idempotency-Key: an identical retry gets the first reply', async () => {
    const key = newIdempotencyKey();
    const call = () =>
      portalRequest({ method: 'POST', path: routes.businesses(), body: { name: 'Portal Client Test Ltd' }, idempotencyKey: key, schema: BusinessCreateResult });
    const first = await call();
    const again = await call();
    expect(first.status).toBe(201);
    expect(again.data.business.id).toBe(first.data.business.id);
  });

  it('refuses a schema mismatch as bad_upstream_reply 502, listing the issue paths', async () => {
    const Wrong = z.strictObject({ object: z.literal('list'), items: z.array(z.strictObject({ id: z.number() })) });
    const e = await failure(portalRequest({ path: routes.businesses(), query: { page_size: 1 }, schema: Wrong }));
    expect(e).toMatchObject({ status: 502, code: 'bad_upstream_reply' });
    expect(e.requestId).toMatch(/^req_/);
    const paths = e.details.map((d) => d.parameter);
    expect(paths).toContain('items.0.id');
    expect(paths).toContain('(root)'); // next_cursor/previous_cursor: unrecognised keys of the strict root
  });
});

describe('against scripted upstreams', () => {
  let waits: number[] = [];

  beforeEach(() => {
    configure(upstream.baseUrl);
    upstream.seen.length = 0;
    foreign.seen.length = 0;
    waits = [];
    setRetryTimingForTests({
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
  });
  afterEach(() => {
    setRetryTimingForTests(null);
  });

  it('sends the key, Accept and a JSON body, and nothing from any browser', async () => {
    upstream.script = (_req, res) => json(res, 200, { ok: true }, { ETag: 'W/"7-abc"' });
    const res = await portalRequest({
      method: 'PATCH',
      path: routes.business('biz_one'),
      body: { name: 'x' },
      ifMatch: '"6-abc"',
      idempotencyKey: 'idem-1',
      schema: Ok,
    });
    expect(res).toMatchObject({ data: { ok: true }, etag: 'W/"7-abc"', requestId: 'req_scripted_200', status: 200 });
    const [seen] = upstream.seen;
    expect(seen).toMatchObject({ method: 'PATCH', url: '/v1/businesses/biz_one/', body: '{"name":"x"}' });
    expect(seen!.headers).toMatchObject({
      authorization: `Bearer ${SENTINEL}`,
      accept: 'application/json',
      'content-type': 'application/json',
      'if-match': '"6-abc"',
      'idempotency-key': 'idem-1',
    });
    expect(seen!.headers.cookie).toBeUndefined();
    expect(seen!.headers['x-csrf']).toBeUndefined();
  });

  it('logs one structured line per request: method, path without query, status, ms, request_id, attempt', async () => {
    upstream.script = (_req, res) => json(res, 200, { ok: true });
    const before = lines.length;
    await portalRequest({ path: routes.businesses(), query: { cursor: 'opaque-cursor-value' }, schema: Ok });
    const logged = lines.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 'info', msg: 'portal request', method: 'GET', path: '/v1/businesses/', status: 200, request_id: 'req_scripted_200', attempt: 1 });
    expect(typeof logged[0]!.ms).toBe('number');
    expect(lines.slice(before).join('\n')).not.toMatch(/opaque-cursor-value|authorization|headers/i);
  });

  it('honours Retry-After on a 429 (really waiting), then succeeds', async () => {
    setRetryTimingForTests(null);
    upstream.script = (_req, res, n) => (n === 1 ? json(res, 429, errorBody('rate_limited', 'Slow down.'), { 'Retry-After': '1' }) : json(res, 200, { ok: true }));
    const started = Date.now();
    const res = await portalRequest({ path: routes.businesses(), schema: Ok });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(res.attempts).toBe(2);
    expect(upstream.seen).toHaveLength(2);
  });

  it('waits at least a Retry-After given as an HTTP date, and retries a 429 even for a POST without a key', async () => {
    const when = new Date(Date.now() + 3000).toUTCString();
    upstream.script = (_req, res, n) => (n === 1 ? json(res, 429, errorBody('rate_limited', 'Slow down.'), { 'Retry-After': when }) : json(res, 200, { ok: true }));
    await portalRequest({ method: 'POST', path: routes.businesses(), body: {}, schema: Ok });
    expect(upstream.seen).toHaveLength(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
    expect(waits[0]).toBeLessThanOrEqual(3100);
  });

  it('gives up after 3 attempts of 429, surfacing Retry-After', async () => {
    upstream.script = (_req, res) => json(res, 429, errorBody('rate_limited', 'Slow down.'), { 'Retry-After': '2' });
    const e = await failure(portalRequest({ path: routes.businesses(), schema: Ok }));
    expect(e).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 2, requestId: 'req_scripted_429' });
    expect(upstream.seen).toHaveLength(3);
    expect(waits.every((w) => w >= 2000)).toBe(true);
  });

  it('surfaces a 429 at once when Retry-After is longer than 10 s', async () => {
    upstream.script = (_req, res) => json(res, 429, errorBody('rate_limited', 'Slow down.'), { 'Retry-After': '30' });
    const e = await failure(portalRequest({ path: routes.businesses(), schema: Ok }));
    expect(e).toMatchObject({ status: 429, retryAfter: 30 });
    expect(upstream.seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('retries a 5xx for a GET with small, growing back-off, and succeeds', async () => {
    upstream.script = (_req, res, n) => (n < 3 ? json(res, 503, errorBody('internal_error', 'Busy.')) : json(res, 200, { ok: true }));
    const res = await portalRequest({ path: routes.businesses(), schema: Ok });
    expect(res.attempts).toBe(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(50);
    expect(waits[0]).toBeLessThanOrEqual(100);
    expect(waits[1]).toBeGreaterThanOrEqual(100);
    expect(waits[1]).toBeLessThanOrEqual(200);
  });

  it('gives up on a GET after 3 attempts of 500 with the last error', async () => {
    upstream.script = (_req, res) => json(res, 500, errorBody('internal_error', 'Broken.'));
    const e = await failure(portalRequest({ path: routes.businesses(), schema: Ok }));
    expect(e).toMatchObject({ status: 500, code: 'internal_error', message: 'Broken.', fromUpstream: true });
    expect(upstream.seen).toHaveLength(3);
  });

  it('does NOT retry a 5xx for a POST without an Idempotency-Key', async () => {
    upstream.script = (_req, res) => json(res, 503, errorBody('internal_error', 'Busy.'));
    const e = await failure(portalRequest({ method: 'POST', path: routes.businesses(), body: { name: 'x' }, schema: Ok }));
    expect(e.status).toBe(503);
    expect(upstream.seen).toHaveLength(1);
  });

  it('retries a 5xx for a POST WITH an Idempotency-Key, sending the same key each time', async () => {
    upstream.script = (_req, res, n) => (n < 3 ? json(res, 502, 'Bad gateway') : json(res, 201, { ok: true }));
    const key = newIdempotencyKey();
    const res = await portalRequest({ method: 'POST', path: routes.businesses(), body: { name: 'x' }, idempotencyKey: key, schema: Ok });
    expect(res.status).toBe(201);
    expect(upstream.seen.map((s) => s.headers['idempotency-key'])).toEqual([key, key, key]);
    expect(new Set(upstream.seen.map((s) => s.body)).size).toBe(1);
  });

  it('retries a 5xx and a dropped connection for a write guarded by If-Match, sending the same If-Match and body', async () => {
    upstream.script = (req, res, n) => (n === 1 ? json(res, 503, errorBody('internal_error', 'Busy.')) : n === 2 ? req.socket.destroy() : json(res, 200, { ok: true }));
    const body = { answers_revision: 4, answers: [] };
    const res = await portalRequest({ method: 'PATCH', url: `${upstream.baseUrl}client-intake-applications/ciappl_a/answers/`, ifMatch: '"answers-4"', body, schema: Ok });
    expect(res.attempts).toBe(3);
    expect(upstream.seen.map((s) => s.headers['if-match'])).toEqual(['"answers-4"', '"answers-4"', '"answers-4"']);
    expect(upstream.seen.map((s) => s.body)).toEqual(Array(3).fill(JSON.stringify(body)));
  });

  it('retries a read whose body was cut short, and takes the whole one', async () => {
    upstream.script = (req, res, n) => {
      if (n > 1) return json(res, 200, { ok: true });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"ok":');
      setImmediate(() => req.socket.destroy());
    };
    const res = await portalRequest({ path: routes.businesses(), schema: Ok });
    expect(res).toMatchObject({ attempts: 2, data: { ok: true } });
  });

  it('refuses a reply past the size limit without holding more of it', async () => {
    upstream.script = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      // 33 MiB of an unterminated string, in 1 MiB pieces: past MAX_REPLY_BYTES (32 MiB).
      const piece = 'x'.repeat(1024 * 1024);
      res.write('{"ok":"');
      let sent = 0;
      const more = () => {
        while (sent < 33 && !res.destroyed) {
          sent++;
          if (!res.write(piece)) return void res.once('drain', more);
        }
        res.end('"}');
      };
      more();
    };
    const e = await failure(portalRequest({ path: routes.businesses(), schema: Anything }));
    expect(e).toMatchObject({ code: 'bad_upstream_reply' });
    expect(e.message).toMatch(/larger than/);
  });

  it('never retries a 412, even with an Idempotency-Key', async () => {
    upstream.script = (_req, res) => json(res, 412, errorBody('precondition_failed', 'Stale.', [{ code: 'stale_etag', message: 'Re-read.', parameter: 'If-Match' }]));
    const e = await failure(
      portalRequest({ method: 'POST', path: routes.businessStageTransitions('biz_one'), ifMatch: '"1"', idempotencyKey: 'k-412', body: { stage_id: 'bstg_x' }, schema: Ok }),
    );
    expect(e).toMatchObject({ status: 412, code: 'precondition_failed', requestId: 'req_scripted_412', url: `${upstream.baseUrl}businesses/biz_one/stage-transitions/` });
    expect(e.details).toEqual([{ code: 'stale_etag', message: 'Re-read.', parameter: 'If-Match' }]);
    expect(upstream.seen).toHaveLength(1);
  });

  it.each([400, 401, 403, 404, 409, 422, 428])('never retries a %i', async (status) => {
    upstream.script = (_req, res) => json(res, status, errorBody('whatever', 'No.'));
    const e = await failure(portalRequest({ path: routes.businesses(), schema: Ok }));
    expect(e.status).toBe(status);
    expect(upstream.seen).toHaveLength(1);
  });

  it('tolerates an error reply that is not JSON', async () => {
    upstream.script = (_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/html', 'Request-Id': 'req_html' });
      res.end('<html>Not here</html>');
    };
    const e = await failure(portalRequest({ path: routes.businesses(), schema: Ok }));
    expect(e).toMatchObject({ status: 404, code: 'not_found', requestId: 'req_html', message: 'The Portal replied with HTTP 404.', details: [] });
  });

  it('takes the request id from the error body when the header is missing', async () => {
    upstream.script = (_req, res) => {
      res.writeHead(409, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(errorBody('conflict', 'Already there.')));
    };
    const e = await failure(portalRequest({ path: routes.businesses(), schema: Ok }));
    expect(e).toMatchObject({ status: 409, code: 'conflict', requestId: 'req_in_body' });
  });

  it('refuses a success body that is not JSON', async () => {
    upstream.script = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('hello');
    };
    const e = await failure(portalRequest({ path: routes.businesses(), schema: Ok }));
    expect(e).toMatchObject({ status: 502, code: 'bad_upstream_reply' });
  });

  it('parses an empty success reply as undefined (for 204s)', async () => {
    upstream.script = (_req, res) => {
      res.writeHead(204, { 'Request-Id': 'req_204' });
      res.end();
    };
    const res = await portalRequest({ method: 'DELETE', url: `${upstream.baseUrl}client-intake-applications/ciappl_a/files/afile_1/`, schema: z.undefined() });
    expect(res).toMatchObject({ status: 204, data: undefined, requestId: 'req_204' });
  });

  it('retries network failures for a GET, then reports upstream_unreachable 502', async () => {
    upstream.script = (req) => req.socket.destroy();
    const e = await failure(portalRequest({ path: routes.businesses(), schema: Ok }));
    expect(e).toMatchObject({ status: 502, code: 'upstream_unreachable', requestId: null });
    expect(upstream.seen).toHaveLength(3);
  });

  it('does not retry a network failure for a POST without an Idempotency-Key', async () => {
    upstream.script = (req) => req.socket.destroy();
    const e = await failure(portalRequest({ method: 'POST', path: routes.businesses(), body: {}, schema: Ok }));
    expect(e.code).toBe('upstream_unreachable');
    expect(upstream.seen).toHaveLength(1);
  });

  it('times out as upstream_timeout 504 within the budget', async () => {
    upstream.script = () => {
      /* never answers */
    };
    const started = Date.now();
    const e = await failure(portalRequest({ path: routes.businesses(), schema: Ok, timeoutMs: 300 }));
    expect(e).toMatchObject({ status: 504, code: 'upstream_timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(upstream.seen).toHaveLength(1);
  });

  it('reports the caller’s own cancellation as request_aborted', async () => {
    upstream.script = () => {
      /* never answers */
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const e = await failure(portalRequest({ path: routes.businesses(), schema: Ok, signal: controller.signal }));
    expect(e).toMatchObject({ status: 499, code: 'request_aborted' });
  });

  it('within a request, stops with the request’s signal without being passed one', async () => {
    upstream.script = () => {
      /* never answers */
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const call = runInRequest(newRequestContext(controller.signal), () => portalRequest({ path: routes.businesses(), schema: Ok }));
    expect(await failure(call)).toMatchObject({ status: 499, code: 'request_aborted' });
  });

  it('within a request, notes the Request-Id the reply names: the write’s, not a read after it; never background work’s', async () => {
    let n = 0;
    upstream.script = (req, res) => json(res, req.method === 'GET' ? 200 : 412, req.method === 'GET' ? { ok: true } : errorBody('precondition_failed', 'Stale.'), { 'Request-Id': `req_${++n}_${req.method}` });
    const context = newRequestContext(new AbortController().signal);
    await runInRequest(context, async () => {
      await portalRequest({ path: routes.businesses(), schema: Ok });
      expect(context.upstream.requestId).toBe('req_1_GET');
      await failure(portalRequest({ method: 'PATCH', path: routes.business('biz_one'), body: {}, ifMatch: '"1-a"', schema: Ok }));
      await portalRequest({ path: routes.business('biz_one'), schema: Ok });
      await portalRequest({ path: routes.businesses(), schema: Ok, background: true });
    });
    expect(n).toBe(4);
    expect(context.upstream.requestId).toBe('req_2_PATCH');
    const logged = lines.filter((l) => l.includes('req_4_GET')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged[0]).toMatchObject({ request_id: 'req_4_GET', background: true, bff_request_id: context.requestId });
  });

  it('does not follow a redirect (the key would go along)', async () => {
    upstream.script = (_req, res) => {
      res.writeHead(302, { Location: `${foreign.baseUrl}businesses/`, 'Request-Id': 'req_302' });
      res.end();
    };
    const e = await failure(portalRequest({ path: routes.businesses(), schema: Ok }));
    expect(e).toMatchObject({ status: 502, code: 'upstream_redirect', requestId: 'req_302' });
    expect(upstream.seen).toHaveLength(1);
    expect(foreign.seen).toHaveLength(0);
  });

  it('refuses to follow a contract_url on a foreign host: the foreign server receives nothing', async () => {
    const base = upstream.baseUrl;
    const application = {
      id: 'ciappl_abc',
      object: 'client_intake_application',
      revision: 1,
      answers_revision: 0,
      business: { id: 'biz_abc', object: 'business', name: 'Abc Ltd', url: `${base}businesses/biz_abc/` },
      status: null,
      progress: null,
      submitted_at: null,
      updated_at: '2025-01-01T00:00:00Z',
      url: `${base}client-intake-applications/ciappl_abc/`,
      answers_url: `${base}client-intake-applications/ciappl_abc/answers/`,
      contract_url: `${foreign.baseUrl}client-intake-applications/ciappl_abc/contract/`,
      submit_url: `${base}client-intake-applications/ciappl_abc/submit/`,
      autofill_preparation_url: `${base}client-intake-applications/ciappl_abc/autofill-preparation/`,
      autofill_runs_url: `${base}client-intake-applications/ciappl_abc/autofill-runs/`,
    };
    upstream.script = (_req, res) => json(res, 200, { application });
    const read = await portalRequest({ path: routes.application('ciappl_abc'), schema: ApplicationEnvelope });
    const e = await failure(portalRequest({ url: read.data.application.contract_url, schema: ApplicationContract }));
    expect(e).toMatchObject({ status: 502, code: 'untrusted_url' });
    // Same machine, other hostname for it: still another origin.
    const aliased = read.data.application.answers_url.replace('127.0.0.1', 'localhost');
    expect((await failure(portalRequest({ url: aliased, schema: Anything }))).code).toBe('untrusted_url');
    expect(foreign.seen).toHaveLength(0);
    expect(upstream.seen).toHaveLength(1);
  });

  it('refuses a malformed If-Match or Idempotency-Key before any I/O', async () => {
    const bad = await failure(portalRequest({ method: 'PATCH', path: routes.businesses(), ifMatch: 'no-quotes', body: {}, schema: Ok }));
    expect(bad).toMatchObject({ status: 400, code: 'invalid_request' });
    const badKey = await failure(portalRequest({ method: 'POST', path: routes.businesses(), idempotencyKey: 'has spaces', body: {}, schema: Ok }));
    expect(badKey.code).toBe('invalid_request');
    expect(upstream.seen).toHaveLength(0);
  });
});

describe('the API key stays secret', () => {
  it('was actually used and logged about (so the checks below are not vacuous)', () => {
    expect(lines.length).toBeGreaterThan(20);
    expect(errors.length).toBeGreaterThan(20);
  });

  it('never appears in a log line, nor in any thrown error’s message, JSON or inspection', () => {
    for (const line of lines) expect(line).not.toContain(SENTINEL);
    for (const e of errors) {
      expect(String(e)).not.toContain(SENTINEL);
      expect(JSON.stringify(e)).not.toContain(SENTINEL);
      expect(inspect(e, { depth: 10 })).not.toContain(SENTINEL);
    }
  });
});
