import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { AnswersPageView } from '@/lib/bff/applications';
import { ItemsPageView } from '@/lib/bff/items';
import { ApplicationEnvelope, BusinessFileUploadResult } from '@/lib/portal';
import { readAllAnswers } from '@/server/applications/answers';
import { deleteFile, listFiles } from '@/server/applications/files';
import { listItems } from '@/server/applications/items';
import { applicationLinks, type IntakeLinks as ApplicationLinks } from '@/server/applications/intake-application';
import { createUser } from '@/server/auth';
import { deleteEvidence, readPreparation } from '@/server/autofill/preparation';
import { listRuns, readRun } from '@/server/autofill/runs';
import { createDb } from '@/server/db';
import type { Db } from '@/server/db/types';
import { resetEnvForTests } from '@/server/env';
import { setLogSink } from '@/server/log';
import { PortalError, portalDownload, portalRequest, portalTransfer, routes, urlBelow } from '@/server/portal';
import type { RunningSandbox } from '@/server/sandbox/server';
import { startNextServer, type NextServer } from '../e2e/support/next-server';
import { SENTINEL_API_KEY, SENTINEL_SESSION_SECRET } from '../support/bff-stack';
import { withSearchPath } from '../support/postgres';
import { freshApplication } from './support/applications';
import { BffClient, bffStack, type Reply } from './support/bff';
import { newIdempotencyKey } from './support/bff-businesses';
import { errorOf } from './support/route-catalog';
import { KEYS, SandboxClient } from './support/sandbox';

/*
 * DESIGN.md §3: browser cookies and headers never go upstream; a URL from the upstream gets the API key only
 * if it is on the Portal's origin and under its base path; redirects are not followed; transfer URLs never
 * get the key. Checked twice: on the Portal client in this process (scripted upstream and a "foreign" host),
 * and through the production server, started here a second time against a recording proxy of the sandbox.
 */

// ---------------------------------------------------------------------------------------------------------
// Loopback servers that record what reaches them

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Recording {
  origin: string;
  baseUrl: string;
  seen: Seen[];
  close(): Promise<void>;
}

async function recordingServer(handle: (req: Seen, res: ServerResponse) => void | Promise<void>): Promise<Recording> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(s);
      Promise.resolve(handle(s, res)).catch((e: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/v1/`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_recorded_${status}`, ...headers });
  res.end(JSON.stringify(body));
}

/** What the foreign host answers: something plausible, so only the BFF's own refusal keeps the key away. */
const foreignReply = (_req: Seen, res: ServerResponse) => json(res, 200, { ok: true });

/** Browser-side values that must never show up upstream. */
const BROWSER = {
  cookie: `tracking_${randomBytes(6).toString('hex')}`,
  header: `custom_${randomBytes(6).toString('hex')}`,
  authorization: `Bearer browser_${randomBytes(6).toString('hex')}`,
  agent: `BrowserAgent/${randomBytes(4).toString('hex')}`,
};
// x-intake-proxied: proxy.ts's stamp for the routes behind it, nobody else's business.
const BROWSER_ONLY_HEADERS = ['cookie', 'x-csrf', 'origin', 'referer', 'sec-fetch-site', 'sec-fetch-dest', 'x-custom-sentinel', 'x-filename', 'x-forwarded-for', 'x-intake-proxied'];

/** No header of a request carries anything the browser sent (bar If-Match and Idempotency-Key, passed on by design). */
function expectNothingFromTheBrowser(s: Seen) {
  const where = `${s.method} ${s.url}`;
  for (const name of BROWSER_ONLY_HEADERS) expect(s.headers[name], `${name} on ${where}`).toBeUndefined();
  for (const [name, value] of Object.entries(s.headers)) {
    const v = String(value);
    for (const sent of Object.values(BROWSER)) expect(v.includes(sent), `the browser's ${sent} in ${name} of ${where}`).toBe(false);
  }
}

function expectNoKey(s: Seen) {
  const where = `${s.method} ${s.url}`;
  expect(s.headers.authorization, `Authorization on ${where}`).toBeUndefined();
  for (const [name, value] of Object.entries(s.headers)) expect(String(value).includes(SENTINEL_API_KEY), `the key in ${name} of ${where}`).toBe(false);
  expect(s.url.includes(SENTINEL_API_KEY), `the key in the URL of ${where}`).toBe(false);
  expect(s.body.includes(SENTINEL_API_KEY), `the key in the body of ${where}`).toBe(false);
}

/** An application whose every URL is on `urlBase`: what a compromised or confused upstream might send. */
function applicationAt(id: string, self: string, urlBase: string) {
  const app = (p: string) => `${urlBase}client-intake-applications/${id}/${p}`;
  return {
    id,
    object: 'client_intake_application',
    revision: 1,
    answers_revision: 0,
    business: { id: 'biz_abc', object: 'business', name: 'Abc Ltd', url: `${urlBase}businesses/biz_abc/` },
    status: null,
    progress: null,
    submitted_at: null,
    updated_at: '2025-01-01T00:00:00Z',
    url: `${self}client-intake-applications/${id}/`,
    answers_url: app('answers/'),
    contract_url: app('contract/'),
    submit_url: app('submit/'),
    autofill_preparation_url: app('autofill-preparation/'),
    autofill_runs_url: app('autofill-runs/'),
  };
}

async function failure(p: Promise<unknown>): Promise<PortalError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PortalError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

// ---------------------------------------------------------------------------------------------------------

describe('the Portal client, in this process', () => {
  let upstream: Recording;
  let foreign: Recording;
  let upstreamScript: (req: Seen, res: ServerResponse) => void = (_req, res) => json(res, 200, { ok: true });
  const lines: string[] = [];
  let restoreSink = () => {};

  beforeAll(async () => {
    upstream = await recordingServer((req, res) => upstreamScript(req, res));
    foreign = await recordingServer(foreignReply);
    restoreSink = setLogSink((l) => lines.push(l));
    resetEnvForTests({ PORTAL_BASE_URL: upstream.baseUrl, PORTAL_API_KEY: SENTINEL_API_KEY, SESSION_SECRET: SENTINEL_SESSION_SECRET, LOG_LEVEL: 'debug' });
  });
  afterAll(async () => {
    restoreSink();
    resetEnvForTests();
    await Promise.all([upstream?.close(), foreign?.close()]);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l.includes(SENTINEL_API_KEY), l).toBe(false);
  });

  it('sends the key and its own headers only: no cookie, X-CSRF, Origin or anything else of a browser', async () => {
    upstreamScript = (_req, res) => json(res, 200, { ok: true });
    const Ok = z.object({ ok: z.literal(true) });
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE'] as const) {
      await portalRequest({ method, path: routes.businesses(), schema: Ok, body: method === 'GET' ? undefined : { name: 'x' }, idempotencyKey: 'idem-1', ifMatch: '"1-a"' });
    }
    expect(upstream.seen).toHaveLength(4);
    for (const s of upstream.seen) {
      expectNothingFromTheBrowser(s);
      expect(s.headers.authorization).toBe(`Bearer ${SENTINEL_API_KEY}`);
      expect(s.headers['idempotency-key']).toBe('idem-1');
      expect(s.headers['if-match']).toBe('"1-a"');
    }
  });

  it('refuses every URL of an application read that points at another host, and the host hears nothing', async () => {
    upstream.seen.length = 0;
    upstreamScript = (_req, res) => json(res, 200, { application: applicationAt('ciappl_poisoned', upstream.baseUrl, foreign.baseUrl) });
    // The links of the application: its contract_url is the first URL followed.
    const e = await failure(applicationLinks('ciappl_poisoned'));
    expect(e).toMatchObject({ status: 502, code: 'untrusted_url' });
    expect(upstream.seen).toHaveLength(1);

    const read = await portalRequest({ path: routes.application('ciappl_poisoned'), schema: ApplicationEnvelope });
    const a = read.data.application;
    for (const url of [a.contract_url, a.answers_url, a.submit_url, a.autofill_preparation_url, a.autofill_runs_url, a.business.url]) {
      expect((await failure(portalRequest({ url, schema: z.unknown() }))).code, url).toBe('untrusted_url');
      expect((await failure(portalRequest({ method: 'POST', url, schema: z.unknown(), body: {}, idempotencyKey: 'k' }))).code, url).toBe('untrusted_url');
    }
    expect(foreign.seen).toHaveLength(0);
  });

  it('refuses answers, items, files, Autofill and urlBelow children of collections on another host', async () => {
    upstream.seen.length = 0;
    const at = (p: string) => `${foreign.baseUrl}client-intake-applications/ciappl_elsewhere/${p}`;
    const links: ApplicationLinks = {
      self: at(''),
      contract: at('contract/'),
      answers: at('answers/'),
      updateAnswers: at('answers/'),
      repeatableItems: at('repeatable-items/'),
      fileUploads: at('file-uploads/'),
      files: at('files/'),
      submit: at('submit/'),
      autofillPreparation: at('autofill-preparation/'),
      autofillRuns: at('autofill-runs/'),
    };
    const calls: Array<[string, Promise<unknown>]> = [
      ['answers', readAllAnswers(links)],
      ['items below repeatable_items_url', listItems(links, 'owners', {})],
      ['files', listFiles(links, {})],
      ['a file below files_url', deleteFile(links, 'afile_abc')],
      ['the preparation', readPreparation('ciappl_elsewhere', links)],
      ['evidence below the preparation', deleteEvidence('ciappl_elsewhere', links, 'afev_abc', '"1-a"')],
      ['the runs', listRuns('ciappl_elsewhere', links, {})],
      ['a run below autofill_runs_url', readRun('ciappl_elsewhere', links, 'afrun_abc')],
      ['urlBelow a foreign collection', portalRequest({ url: urlBelow(links.repeatableItems, 'owners', 'ritem_abc'), schema: z.unknown() })],
    ];
    for (const [what, call] of calls) expect((await failure(call)).code, what).toBe('untrusted_url');
    expect(foreign.seen).toHaveLength(0);
    expect(upstream.seen).toHaveLength(0);
  });

  it('refuses look-alikes of the Portal’s own URLs: other path, scheme, host name, user info, traversal', async () => {
    upstream.seen.length = 0;
    const { origin, baseUrl } = upstream;
    const port = new URL(origin).port;
    for (const url of [
      `${origin}/v2/businesses/`,
      `${origin}/v1evil/businesses/`,
      `${origin}/v1/../admin/`,
      `${baseUrl}businesses/%2e%2e/%2e%2e/admin/`,
      `${baseUrl}businesses/..%2f..%2fadmin/`,
      `https://127.0.0.1:${port}/v1/businesses/`,
      `http://localhost:${port}/v1/businesses/`,
      `http://user:pass@127.0.0.1:${port}/v1/businesses/`,
      `//127.0.0.1:${port}/v1/businesses/`,
      'businesses/',
      `${baseUrl}busi\nnesses/`,
    ]) {
      expect((await failure(portalRequest({ url, schema: z.unknown() }))).code, url).toBe('untrusted_url');
    }
    // A child segment that tries to climb out of its collection stays inside it, encoded.
    const child = urlBelow(`${baseUrl}client-intake-applications/ciappl_a/files/`, '../../../businesses');
    expect((await failure(portalRequest({ url: child, schema: z.unknown() }))).code).toBe('untrusted_url');
    expect(() => urlBelow(`${baseUrl}client-intake-applications/ciappl_a/files/`, '..')).toThrow(PortalError);
    expect(upstream.seen).toHaveLength(0);
  });

  it('does not follow a redirect to another host', async () => {
    upstream.seen.length = 0;
    upstreamScript = (_req, res) => {
      res.writeHead(307, { Location: `${foreign.baseUrl}businesses/`, 'Request-Id': 'req_307' });
      res.end();
    };
    expect(await failure(portalRequest({ path: routes.businesses(), schema: z.unknown() }))).toMatchObject({ status: 502, code: 'upstream_redirect' });
    expect(upstream.seen).toHaveLength(1);
    expect(foreign.seen).toHaveLength(0);
  });

  it('sends transfers to their signed URL, wherever it is, without the key', async () => {
    const result = { request_path: 'documents', filename: 'a.pdf', size: 3, application_file_count: 1, application_file_bytes: 3 };
    const transferHost = await recordingServer((req, res) => {
      if (req.method === 'PUT') json(res, 200, result);
      else res.end('abc');
    });
    try {
      await portalTransfer({ uploadUrl: `${transferHost.origin}/t/upl_1?token=abc`, body: Buffer.from('abc'), contentType: 'application/pdf', filename: 'a.pdf', schema: BusinessFileUploadResult });
      const download = await portalDownload(`${transferHost.origin}/d/afile_1?token=abc`);
      await download.body?.cancel();
      expect(transferHost.seen.map((s) => s.method)).toEqual(['PUT', 'GET']);
      for (const s of transferHost.seen) {
        expectNoKey(s);
        expectNothingFromTheBrowser(s);
      }
    } finally {
      await transferHost.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('the production server, against a recording proxy of the sandbox', () => {
  let proxy: Recording;
  let foreign: Recording;
  let server: NextServer;
  let db: Db;
  let schemaAdminUrl: string;
  let schema: string;
  let logFile: string;
  let staff: BffClient;

  /** Per application id: how the proxy bends the sandbox's replies about it (a confused or hostile upstream). */
  const poison = new Map<string, (path: string, method: string, body: Record<string, unknown>) => Record<string, unknown>>();
  const redirectFor = new Set<string>();

  const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);

  async function forward(req: Seen, res: ServerResponse) {
    const { sandboxOrigin } = bffStack();
    const appId = /\/client-intake-applications\/(ciappl_[a-z0-9]+)\//.exec(req.url)?.[1];
    if (appId && redirectFor.has(appId)) {
      res.writeHead(302, { Location: `${foreign.origin}${req.url}`, 'Request-Id': 'req_proxy_302' });
      res.end();
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined || ['host', 'connection', 'content-length', 'transfer-encoding', 'accept-encoding'].includes(k)) continue;
      headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    }
    const upstream = await fetch(`${sandboxOrigin}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(req.body),
      redirect: 'manual',
    });
    const out: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) out[k] = v.split(sandboxOrigin).join(proxy.origin);
    });
    let bytes = Buffer.from(await upstream.arrayBuffer());
    if ((upstream.headers.get('content-type') ?? '').includes('json') && bytes.length > 0) {
      let text = bytes.toString('utf8').split(sandboxOrigin).join(proxy.origin);
      const bend = appId ? poison.get(appId) : undefined;
      if (bend) text = JSON.stringify(bend(req.url.split('?')[0]!, req.method, JSON.parse(text) as Record<string, unknown>));
      bytes = Buffer.from(text, 'utf8');
    }
    res.writeHead(upstream.status, out);
    res.end(bytes);
  }

  beforeAll(async () => {
    proxy = await recordingServer((req, res) => forward(req, res));
    foreign = await recordingServer(foreignReply);

    const pgUrl = inject('testPostgres')?.url;
    if (!pgUrl) throw new Error('no test PostgreSQL');
    schemaAdminUrl = pgUrl;
    schema = `sec_up_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const databaseUrl = withSearchPath(pgUrl, schema);
    db = await createDb({ url: databaseUrl });
    const password = `pw-${randomBytes(9).toString('hex')}`;
    const email = `staff-${randomBytes(4).toString('hex')}@example.test`;
    await createUser(db, { email, name: 'Upstream Test Staff', role: 'staff', password });

    logFile = join(mkdtempSync(join(tmpdir(), 'bff-upstream-')), 'next.log');
    server = await startNextServer({
      logFile,
      env: {
        PORTAL_BASE_URL: proxy.baseUrl,
        PORTAL_API_KEY: SENTINEL_API_KEY,
        DATABASE_URL: databaseUrl,
        SESSION_SECRET: SENTINEL_SESSION_SECRET,
        LOG_LEVEL: 'debug',
        PORTAL_TIMEOUT_MS: '5000',
      },
    });
    staff = new BffClient(server.url);
    await staff.signIn(email, password);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await db?.close();
    if (schema) {
      const admin = new pg.Client({ connectionString: schemaAdminUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
    await Promise.all([proxy?.close(), foreign?.close()]);
  });

  /** A browser that also holds a cookie of its own and sends headers the app never forwards. */
  function browserCall(method: string, path: string, o: { body?: unknown; ifMatch?: string; idempotencyKey?: string; headers?: Record<string, string> } = {}) {
    staff.cookies.set('tracking', BROWSER.cookie);
    return staff.call(method, path, {
      ...o,
      headers: {
        'X-Custom-Sentinel': BROWSER.header,
        Authorization: BROWSER.authorization,
        'User-Agent': BROWSER.agent,
        Referer: `${server.url}/applications`,
        'Sec-Fetch-Site': 'same-origin',
        'Sec-Fetch-Dest': 'empty',
        'X-Forwarded-For': '192.0.2.7',
        ...o.headers,
      },
    });
  }

  it('forwards no browser cookie or header upstream, on reads, writes and uploads alike', async () => {
    const appId = await freshApplication(portal(), 'Upstream Headers Ltd');
    const base = `/api/applications/${appId}`;
    proxy.seen.length = 0;
    const ok = (r: Reply, status = 200) => expect(r.status, r.text.slice(0, 300)).toBe(status);

    ok(await browserCall('GET', base));
    ok(await browserCall('GET', `${base}/contract`));
    const answers = AnswersPageView.parse((await browserCall('GET', `${base}/answers?page_size=500`)).body);
    const field = answers.items.find((i) => i.value_type === 'string')!;
    ok(
      await browserCall('PATCH', `${base}/answers`, {
        ifMatch: answers.etag,
        body: { answers_revision: answers.answers_revision, answers: [{ block_key: field.block_key, schema_key: field.schema_key, field_key: field.field_key, value: 'Upstream Ltd' }] },
      }),
    );
    const itemKey = newIdempotencyKey('item');
    ok(await browserCall('POST', `${base}/items/owners`, { body: {}, idempotencyKey: itemKey }), 201);
    const items = ItemsPageView.parse((await browserCall('GET', `${base}/items/owners`)).body);
    expect(items.items).toHaveLength(1);
    const target = new URLSearchParams({ block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' });
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(1024)]);
    ok(await browserCall('POST', `${base}/files?${target}`, { body: new Uint8Array(pdf), headers: { 'Content-Type': 'application/pdf', 'X-Filename': 'statement.pdf' } }), 201);
    ok(await browserCall('GET', `${base}/files`));
    ok(await browserCall('GET', '/api/portal'));
    const businessKey = newIdempotencyKey('business');
    ok(await browserCall('POST', '/api/businesses', { body: { name: 'Upstream Headers Two Ltd' }, idempotencyKey: businessKey }), 201);

    const api = proxy.seen.filter((s) => s.url.startsWith('/v1/'));
    const transfers = proxy.seen.filter((s) => !s.url.startsWith('/v1/'));
    expect(api.length).toBeGreaterThan(8);
    expect(transfers.map((s) => s.method)).toEqual(['PUT']);
    for (const s of proxy.seen) expectNothingFromTheBrowser(s);
    for (const s of api) expect(s.headers.authorization, `${s.method} ${s.url}`).toBe(`Bearer ${SENTINEL_API_KEY}`);
    for (const s of transfers) expectNoKey(s);
    // The two browser headers passed on by design, and passed on unchanged.
    expect(api.find((s) => s.method === 'PATCH')?.headers['if-match']).toBe(answers.etag);
    expect(api.find((s) => s.method === 'POST' && s.url.endsWith('/repeatable-items/owners/'))?.headers['idempotency-key']).toBe(itemKey);
    expect(api.find((s) => s.method === 'POST' && s.url === '/v1/businesses/')?.headers['idempotency-key']).toBe(businessKey);
  });

  /** A route's refusal to follow a foreign URL: 502 untrusted_url, the foreign host untouched, no URL shown. */
  async function expectUntrusted(method: string, path: string, o: { body?: unknown; ifMatch?: string; idempotencyKey?: string } = {}) {
    const r = await staff.call(method, path, o);
    expect(r.status, `${method} ${path}: ${r.text.slice(0, 300)}`).toBe(502);
    expect(errorOf(r)?.code, `${method} ${path}`).toBe('untrusted_url');
    expect(r.text.includes(new URL(foreign.origin).host), 'the foreign host in the reply').toBe(false);
    expect(r.text.includes(new URL(proxy.origin).host), 'the Portal host in the reply').toBe(false);
    expect(foreign.seen, `what reached the foreign host after ${method} ${path}`).toHaveLength(0);
  }

  it('refuses an application whose contract_url is on a foreign host (502 untrusted_url); the host hears nothing', async () => {
    const appId = await freshApplication(portal(), 'Foreign Contract Ltd');
    poison.set(appId, (path, method, body) => {
      if (method !== 'GET' || path !== `/v1/client-intake-applications/${appId}/`) return body;
      const application = body.application as Record<string, unknown>;
      return { ...body, application: { ...application, contract_url: `${foreign.baseUrl}client-intake-applications/${appId}/contract/` } };
    });
    expect((await staff.get(`/api/applications/${appId}`)).status).toBe(200);
    await expectUntrusted('GET', `/api/applications/${appId}/contract`);
    await expectUntrusted('GET', `/api/applications/${appId}/answers`);
    await expectUntrusted('GET', `/api/applications/${appId}/files`);
  });

  it('refuses answers, items, files and Autofill URLs, and their children, on a foreign host', async () => {
    const appId = await freshApplication(portal(), 'Foreign Operations Ltd');
    const away = (url: unknown) => (typeof url === 'string' ? url.split(proxy.origin).join(foreign.origin) : url);
    poison.set(appId, (path, method, body) => {
      if (method !== 'GET') return body;
      if (path === `/v1/client-intake-applications/${appId}/`) {
        const a = body.application as Record<string, unknown>;
        return { ...body, application: { ...a, autofill_preparation_url: away(a.autofill_preparation_url), autofill_runs_url: away(a.autofill_runs_url) } };
      }
      if (path === `/v1/client-intake-applications/${appId}/contract/`) {
        const operations = Object.fromEntries(Object.entries(body.operations as Record<string, unknown>).map(([k, v]) => [k, away(v)]));
        return { ...body, operations };
      }
      return body;
    });
    const base = `/api/applications/${appId}`;
    const write = { answers_revision: 0, answers: [{ block_key: 'legal_name', schema_key: 'legal_name', field_key: 'value', value: 'x' }] };
    await expectUntrusted('GET', `${base}/answers`);
    await expectUntrusted('PATCH', `${base}/answers`, { ifMatch: '"answers-x-0"', body: write });
    await expectUntrusted('GET', `${base}/items/owners`);
    const itemWrite = { answers_revision: 0, answers: [{ schema_key: 'owner_full_name', field_key: 'value', value: 'x' }] };
    await expectUntrusted('PATCH', `${base}/items/owners/ritem_abc`, { ifMatch: '"answers-x-0"', body: itemWrite });
    await expectUntrusted('GET', `${base}/files`);
    await expectUntrusted('DELETE', `${base}/files/afile_abc`);
    await expectUntrusted('GET', `${base}/autofill/preparation`);
    await expectUntrusted('DELETE', `${base}/autofill/preparation/files/afev_abc`, { ifMatch: '"1-a"' });
    await expectUntrusted('GET', `${base}/autofill/runs`);
    await expectUntrusted('GET', `${base}/autofill/runs/afrun_abc`);
  });

  it('does not follow an upstream redirect to a foreign host (502), and sends an upload_url elsewhere no key', async () => {
    const redirected = await freshApplication(portal(), 'Redirected Ltd');
    redirectFor.add(redirected);
    const r = await staff.get(`/api/applications/${redirected}`);
    expect(r.status, r.text).toBe(502);
    expect(errorOf(r)?.code).toBe('upstream_redirect');
    expect(foreign.seen).toHaveLength(0);

    // Transfer URLs carry their own credential and may live elsewhere: the bytes go there, the key never.
    const uploading = await freshApplication(portal(), 'Foreign Storage Ltd');
    poison.set(uploading, (path, method, body) =>
      method === 'POST' && path.endsWith('/file-uploads/') && typeof body.upload_url === 'string'
        ? { ...body, upload_url: body.upload_url.split(proxy.origin).join(foreign.origin) }
        : body,
    );
    const target = new URLSearchParams({ block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' });
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(512)]);
    await staff.post(`/api/applications/${uploading}/files?${target}`, { body: new Uint8Array(pdf), headers: { 'Content-Type': 'application/pdf', 'X-Filename': 'a.pdf' } });
    expect(foreign.seen.map((s) => s.method)).toEqual(['PUT']);
    for (const s of foreign.seen) {
      expectNoKey(s);
      expectNothingFromTheBrowser(s);
    }
    foreign.seen.length = 0;
  });

  it('never writes the key to its own log either', () => {
    const lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(10);
    for (const l of lines) expect(l.includes(SENTINEL_API_KEY), l).toBe(false);
  });
});
