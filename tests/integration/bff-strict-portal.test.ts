// The BFF against a Portal that does only what the spec promises: the sandbox's strict profile (no pipeline or
// recipient lists, no funding operations, no filters but page_size/cursor and section_key, page sizes at most 100,
// a lean API root, stage items of {id, name}, no ETag on the answer set, an extra property in error bodies), with
// its own app instance and schema. The reconciler completes against it, degrades and resumes; the routes that used
// DESIGN.md's completions fall back or say the feature is not there.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AnswersPageView } from '@/lib/bff/applications';
import { FilesPageView, FileUploadResult } from '@/lib/bff/files';
import { ItemsPageView, ItemWriteResult } from '@/lib/bff/items';
import { FUNDING_UNAVAILABLE } from '@/lib/bff/portal-features';
import { AnswerFilePage, AutofillPreparation, AutofillRun, BusinessPage, DealPage } from '@/lib/portal';
import { createUser } from '@/server/auth';
import { createDb } from '@/server/db';
import type { Db } from '@/server/db/types';
import { startSandbox, type RunningSandbox } from '@/server/sandbox/server';
import { newWebhookSecret } from '@/server/webhooks/verify';
import { startNextServer, type NextServer } from '../e2e/support/next-server';
import { adminQuery, withSearchPath } from '../support/pg-admin';
import { poller } from '../support/poller';
import { appPath, freshApplication } from './support/applications';
import { BffClient } from './support/bff';
import { sandboxControl } from './support/sandbox-faults';
import { KEYS, SandboxClient, newKey } from './support/sandbox';

const SESSION_SECRET = 'strict-portal-session-secret-0123456789abcdef';
const until = poller({ timeoutMs: 60_000, everyMs: 100 });

let sandbox: RunningSandbox;
let portal: SandboxClient;
let app: NextServer;
let logFile = '';
let db: Db;
let schema = '';
let pgUrl = '';
let staff: BffClient;

const control = (method: string, path: string, body?: unknown) => sandboxControl(sandbox.origin, method, path, body);

/** The app's log as JSON lines. */
const logLines = () =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const portalCalls = () => logLines().filter((l) => l.msg === 'portal request');

interface Freshness {
  reconciling: boolean;
  reconciled_at: string | null;
  last_error: string | null;
  skipped: Array<{ step: string; why: string }>;
}
const freshness = async () => (await staff.get<{ freshness: Freshness }>('/api/workspace/reconcile')).body.freshness;

async function reconcile(): Promise<Freshness> {
  const before = Date.now();
  expect((await staff.post('/api/workspace/reconcile', { body: {} })).status).toBe(202);
  return until(freshness, (f) => !f.reconciling && (!!f.last_error || (!!f.reconciled_at && Date.parse(f.reconciled_at) >= before)), 'the pass to end');
}

const page = async (path: string) => {
  const r = await staff.get(path, { headers: { Accept: 'text/html' } });
  return { status: r.status, html: r.text };
};

beforeAll(async () => {
  const pg = inject('testPostgres');
  if (!pg?.url) throw new Error(`PostgreSQL is needed: ${pg?.error ?? 'not started'}`);
  pgUrl = pg.url;
  const webhookSecret = newWebhookSecret();
  sandbox = await startSandbox({ port: 0, rateLimit: null, controls: true, webhookSecret, profile: 'strict' });
  portal = new SandboxClient(sandbox, KEYS.full);
  schema = `strict_${process.pid}_${randomBytes(3).toString('hex')}`;
  await adminQuery(pgUrl, `CREATE SCHEMA ${schema}`);
  const databaseUrl = withSearchPath(pgUrl, schema);
  db = await createDb({ url: databaseUrl });
  logFile = join(mkdtempSync(join(tmpdir(), 'bff-strict-')), 'app.log');
  app = await startNextServer({
    logFile,
    env: {
      PORTAL_BASE_URL: sandbox.baseUrl,
      PORTAL_API_KEY: KEYS.full,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET,
      WEBHOOK_SECRET: webhookSecret,
      WORKSPACE_RECONCILE_MINUTES: '0',
      LOG_LEVEL: 'info',
    },
  });
  sandbox.webhooks.retarget(`${app.url}/api/webhooks/portal`);
  const email = `staff-${randomBytes(4).toString('hex')}@example.test`;
  const password = `pw-${randomBytes(9).toString('hex')}`;
  await createUser(db, { email, name: 'Strict Staff', role: 'staff', password });
  staff = new BffClient(app.url);
  await staff.signIn(email, password);
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await sandbox?.close();
  await db?.close();
  if (schema) await adminQuery(pgUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

describe('the BFF against a Portal that offers only what the spec guarantees', () => {
  it("names at start the paths it constructs that the Portal's openapi.json does not list", async () => {
    const line = await until(
      async () => logLines().find((l) => l.msg === 'portal openapi.json does not list paths the app constructs'),
      (l) => l !== undefined,
      'the discovery log line',
    );
    expect(new Set(line!.missing as string[])).toEqual(
      new Set([
        'GET business-pipelines/',
        'GET deal-pipelines/',
        'GET recipients/',
        'GET projects/',
        'POST projects/',
        'GET projects/{id}/',
        'GET match-runs/{id}/',
        'GET matches/{id}/',
        'POST matches/{id}/shortlist/',
        'POST matches/{id}/dismiss/',
      ]),
    );
  });

  it('after a failed pass, 12 home views cost a bounded number of Portal calls; the next pass resumes where it stopped', async () => {
    // The business walk succeeds, the deal list fails: no pass has completed yet.
    await control('PUT', 'faults', { rate_5xx: 1, paths: ['deals/'] });
    try {
      const failed = await reconcile();
      expect(failed.last_error).not.toBeNull();
      expect(failed.reconciled_at).toBeNull();
      const before = portalCalls().length;
      const requested = logLines().filter((l) => l.msg === 'read model reconcile requested').length;
      for (let i = 0; i < 12; i++) {
        const home = await page('/');
        expect(home.status).toBe(200);
        expect(home.html).toContain('The last check did not finish');
      }
      const calls = portalCalls().length - before;
      // At most the stage order of the pipelines, read once and kept: no view starts a pass of its own.
      expect(calls).toBeLessThanOrEqual(4);
      expect(logLines().filter((l) => l.msg === 'read model reconcile requested').length).toBe(requested);
    } finally {
      await control('DELETE', 'faults');
    }

    const statusReadsBefore = portalCalls().filter((l) => String(l.path).endsWith('/status/')).length;
    const done = await reconcile();
    expect(done.last_error).toBeNull();
    expect(done.reconciled_at).not.toBeNull();
    const finished = logLines().filter((l) => l.msg === 'read model reconcile finished').at(-1)!;
    expect(finished).toMatchObject({ resumed: true });
    // It picked up at the deals: no business was read again.
    expect(portalCalls().filter((l) => String(l.path).endsWith('/status/')).length).toBe(statusReadsBefore);
  }, 120_000);

  it('completes against it, with every business and deal, and says what this Portal does not offer', async () => {
    const f = await reconcile();
    expect(f.last_error).toBeNull();
    expect(f.skipped).toEqual(
      expect.arrayContaining([
        { step: 'deal_businesses', why: 'not_offered' },
        { step: 'projects', why: 'not_offered' },
      ]),
    );
    expect(f.skipped.filter((s) => s.why === 'failed')).toEqual([]);
    const businesses = (await portal.read(BusinessPage, 'businesses/?page_size=100')).data.items;
    const deals = (await portal.read(DealPage, 'deals/?page_size=100')).data.items;
    expect((await db.query<{ id: string }>('SELECT id FROM workspace_businesses')).map((r) => r.id).sort()).toEqual(businesses.map((b) => b.id).sort());
    expect((await db.query<{ id: string }>('SELECT id FROM workspace_deals')).map((r) => r.id).sort()).toEqual(deals.map((d) => d.id).sort());
    const home = await page('/');
    expect(home.html).toContain('This Portal does not list deals by business');
  });

  it('skips an optional step that fails (pending suggestion counts), completes, and says so', async () => {
    const apps = await db.query<{ application_id: string }>('SELECT application_id FROM workspace_businesses WHERE application_id IS NOT NULL');
    await control('PUT', 'faults', { rate_5xx: 1, paths: apps.map((a) => `${appPath(a.application_id)}autofill-runs/`) });
    try {
      const f = await reconcile();
      expect(f.last_error).toBeNull();
      expect(f.skipped).toContainEqual({ step: 'pending_suggestions', why: 'failed' });
      expect((await page('/')).html).toContain('That check could not read the Autofill suggestions waiting for review');
    } finally {
      await control('DELETE', 'faults');
    }
    expect((await reconcile()).skipped.filter((s) => s.why === 'failed')).toEqual([]);
  }, 120_000);

  it('counts the suggestions waiting for review without a status filter, so the review inbox fills', async () => {
    await control('PUT', 'clock', { speed: 200 });
    try {
      const appId = await freshApplication(portal, 'Strict Autofill Ltd');
      const prepPath = `${appPath(appId)}autofill-preparation/`;
      const read = await portal.read(AutofillPreparation, prepPath);
      const patched = await portal.patch(prepPath, { ifMatch: read.res.headers.get('etag')!, body: { text_input: 'Legal name: Strict Autofill Ltd\nWebsite: www.strict.example' } });
      expect(patched.status, patched.text).toBe(200);
      const prep = AutofillPreparation.parse(patched.body);
      const started = await portal.post(prep.start_url, { body: { expected_preparation_revision: prep.revision }, idempotencyKey: newKey('start') });
      expect(started.status, started.text).toBe(201);
      const run = await until(async () => (await portal.read(AutofillRun, AutofillRun.parse(started.body).url)).data, (r) => r.status === 'completed', 'the run to complete');
      expect(run.suggestion_count).toBeGreaterThan(0);

      const f = await reconcile();
      expect(f.last_error).toBeNull();
      expect(f.skipped.filter((s) => s.step === 'pending_suggestions')).toEqual([]);
      const row = await db.one<{ pending_count: number }>('SELECT pending_count FROM workspace_suggestions WHERE application_id = $1', [appId]);
      expect(row?.pending_count).toBe(run.suggestion_count);
      expect((await page('/')).html).toContain('Strict Autofill Ltd');
    } finally {
      await control('PUT', 'clock', { speed: 1 });
    }
  });

  it("lists a business's deals and names a deal's business from the read model, where the deal list takes no business filter", async () => {
    const [business, other] = (await portal.read(BusinessPage, 'businesses/?page_size=2')).data.items;
    const created = await staff.post<{ deal: { id: string } }>('/api/deals', { body: { name: 'Strict deal', business_id: business!.id }, idempotencyKey: randomUUID() });
    expect(created.status, created.text).toBe(201);
    const dealId = created.body.deal.id;

    const mine = await staff.get<{ items: Array<{ id: string }> }>(`/api/deals?business_id=${business!.id}&page_size=100`);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.items.map((d) => d.id)).toContain(dealId);
    const theirs = await staff.get<{ items: Array<{ id: string }> }>(`/api/deals?business_id=${other!.id}&page_size=100`);
    expect(theirs.body.items.map((d) => d.id)).not.toContain(dealId);

    const list = await page(`/deals?business_id=${business!.id}`);
    expect(list.status).toBe(200);
    expect(list.html).toContain('Strict deal');
    const one = await page(`/deals/${dealId}?business_id=${business!.id}`);
    expect(one.status).toBe(200);
    expect(one.html).toContain(`Deals of ${business!.name}`);
  });

  it("writes answers and items where the Portal's reads carry no ETag: answers_revision guards them, and a stale write is a 412", async () => {
    const appId = await freshApplication(portal, 'Strict Answers Ltd');
    const base = `/api/applications/${appId}`;
    // page_size 500 is more than this Portal takes: the BFF asks for what its document allows.
    const read = await staff.get(`${base}/answers?page_size=500`);
    expect(read.status, read.text).toBe(200);
    const answers = AnswersPageView.parse(read.body);
    expect(answers.etag).toMatch(/^"bff-answers-revision-\d+"$/);
    const key = { block_key: 'legal_name', schema_key: 'legal_name', field_key: 'value' };
    const ok = await staff.patch<{ etag: string; answers_revision: number }>(`${base}/answers`, {
      ifMatch: answers.etag,
      body: { answers_revision: answers.answers_revision, answers: [{ ...key, value: 'Strict Answers Limited' }] },
    });
    expect(ok.status, ok.text).toBe(200);
    const stale = await staff.patch(`${base}/answers`, { ifMatch: answers.etag, body: { answers_revision: answers.answers_revision, answers: [{ ...key, value: 'Too late' }] } });
    expect(stale.status).toBe(412);

    // A refusal's field-level details survive the Portal's own extra property in its error body.
    const email = answers.items.find((i) => i.value_type === 'email')!;
    const emailKey = { block_key: email.block_key, schema_key: email.schema_key, field_key: email.field_key };
    const invalid = await staff.patch<{ error: { details: Array<Record<string, string>> } }>(`${base}/answers`, {
      ifMatch: ok.body.etag,
      body: { answers_revision: ok.body.answers_revision, answers: [{ ...emailKey, value: 'not an email' }] },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.details).toEqual([expect.objectContaining({ code: 'format', ...emailKey })]);

    const items = ItemsPageView.parse((await staff.get(`${base}/items/owners`)).body);
    expect(items.etag).toMatch(/^"bff-answers-revision-/);
    const owner = await staff.post(`${base}/items/owners`, { ifMatch: items.etag, body: { answers: [{ schema_key: 'owner_full_name', field_key: 'value', value: 'Sam Strict' }] } });
    expect(owner.status, owner.text).toBe(201);
    const made = ItemWriteResult.parse(owner.body);
    const updated = await staff.patch(`${base}/items/owners/${made.item.item_id}`, {
      ifMatch: made.etag,
      body: { answers_revision: made.answers_revision, answers: [{ schema_key: 'owner_email', field_key: 'value', value: 'sam@example.test' }] },
    });
    expect(updated.status, updated.text).toBe(200);
  });

  it('uploads a file (no filters sent the Portal does not take), and a stored file whose reply was lost is not reported as failed', async () => {
    const appId = await freshApplication(portal, 'Strict Uploads Ltd');
    const target = { block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' };
    const upload = async (name: string) => {
      const bytes = new Uint8Array(randomBytes(2048));
      const res = await fetch(`${app.url}/api/applications/${appId}/files?${new URLSearchParams(target)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', 'X-Filename': encodeURIComponent(name), 'X-CSRF': '1', Origin: app.url, Cookie: staff.cookieHeader() },
        body: bytes,
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    const first = await upload('statement-1.txt');
    expect(first.status, JSON.stringify(first.body)).toBe(201);

    // The Portal stores the next file, then the connection goes without its reply.
    await control('PUT', 'faults', { rate_drop_after: 1, paths: ['/transfers/'] });
    let second;
    try {
      second = await upload('statement-2.txt');
    } finally {
      await control('DELETE', 'faults');
    }
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(FileUploadResult.parse(second.body).file.filename).toBe('statement-2.txt');
    const stored = (await portal.read(AnswerFilePage, `${appPath(appId)}files/?page_size=100`)).data.items;
    expect(stored.map((f) => f.filename).sort()).toEqual(['statement-1.txt', 'statement-2.txt']);

    const listed = FilesPageView.parse((await staff.get(`/api/applications/${appId}/files?${new URLSearchParams(target)}`)).body);
    expect(listed.items.map((f) => f.filename).sort()).toEqual(['statement-1.txt', 'statement-2.txt']);
    const none = FilesPageView.parse((await staff.get(`/api/applications/${appId}/files?block_key=annual_accounts&schema_key=annual_accounts&field_key=files`)).body);
    expect(none.items).toEqual([]);
  });

  it('reads the API root without environment, key id or kind; hides funding; draws the board without a pipeline list', async () => {
    const root = await staff.get<{ environment: unknown; key: { kind: string } }>('/api/portal');
    expect(root.status, root.text).toBe(200);
    expect(root.body).toMatchObject({ environment: null, key: { kind: 'portal' } });
    expect((await page('/businesses/new')).status).toBe(200);

    const [business] = (await portal.read(BusinessPage, 'businesses/?page_size=1')).data.items;
    const detail = await page(`/businesses/${business!.id}`);
    expect(detail.status).toBe(200);
    expect(detail.html).toContain(FUNDING_UNAVAILABLE);
    expect(detail.html).not.toContain('New funding project');
    await page('/projects/proj_anything');
    // Nothing the Portal does not offer is ever asked for: no funding read, no recipients, no pipeline list.
    const asked = portalCalls().map((l) => String(l.path));
    for (const absent of ['/v1/projects/', '/v1/recipients/', '/v1/business-pipelines/', '/v1/deal-pipelines/', '/v1/matches/', '/v1/match-runs/']) {
      expect(asked.filter((p) => p === absent || (p.startsWith(absent) && !p.endsWith('/stages/'))), absent).toEqual([]);
    }

    const board = await page('/businesses/board');
    expect(board.status).toBe(200);
    expect(board.html).toContain('Pipeline board: ');
    expect(board.html).not.toContain('No business pipeline is known yet');
  });
});
