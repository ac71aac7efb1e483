// The workspace's reconciler against a sandbox of its own (webhooks paused with its test controls), with two
// BFF instances on one PostgreSQL schema: lost events and direct changes are repaired by a pass, and only one
// instance reconciles at a time.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WorkspaceBusinessPage, type WorkspaceBusiness } from '@/lib/bff/workspace';
import { ApplicationEnvelope, BusinessPage, BusinessStatusResult, DealPage, ParticipantList, ProjectPage } from '@/lib/portal';
import { createUser } from '@/server/auth';
import { createDb } from '@/server/db';
import type { Db } from '@/server/db/types';
import { startSandbox, type RunningSandbox } from '@/server/sandbox/server';
import { newWebhookSecret } from '@/server/webhooks/verify';
import { startNextServer, type NextServer } from '../e2e/support/next-server';
import { adminQuery, withSearchPath } from '../support/pg-admin';
import { poller } from '../support/poller';
import { mustWriteAnswers, w } from './support/applications';
import { BffClient } from './support/bff';
import { createBusiness } from './support/businesses';
import { createProject } from './support/projects';
import { sandboxControl } from './support/sandbox-faults';
import { KEYS, SandboxClient, newKey } from './support/sandbox';

const SESSION_SECRET = 'workspace-reconcile-session-secret-0123456789';
const until = poller({ timeoutMs: 60_000, everyMs: 100 });

let sandbox: RunningSandbox;
let portal: SandboxClient;
let a: NextServer;
let b: NextServer;
let logs: { a: string; b: string };
let db: Db;
let schema = '';
let pgUrl = '';

const control = (method: string, path: string, body?: unknown) => sandboxControl(sandbox.origin, method, path, body);

async function staffOn(server: NextServer) {
  const email = `staff-${randomBytes(4).toString('hex')}@example.test`;
  const password = `pw-${randomBytes(9).toString('hex')}`;
  await createUser(db, { email, name: 'Reconcile Staff', role: 'staff', password });
  const client = new BffClient(server.url);
  await client.signIn(email, password);
  return client;
}

interface LastPass {
  freshness: { reconciling: boolean; reconciled_at: string | null };
  last_pass: { completed_at: string | null; upstream_calls: number | null };
}

async function reconcileOn(client: BffClient) {
  const before = Date.now();
  expect((await client.post('/api/workspace/reconcile', { body: {} })).status).toBe(202);
  return until(
    async () => (await client.get<LastPass>('/api/workspace/reconcile')).body,
    (s) => !!s.last_pass.completed_at && Date.parse(s.last_pass.completed_at) >= before && !s.freshness.reconciling,
    'a completed pass',
  );
}

/** Every row of the businesses table, page by page. */
async function allRows(client: BffClient): Promise<WorkspaceBusiness[]> {
  const rows: WorkspaceBusiness[] = [];
  for (let page = 1; ; page++) {
    const r = await client.get(`/api/workspace/businesses?page_size=100&page=${page}&sort=name`);
    const view = WorkspaceBusinessPage.parse(r.body);
    rows.push(...view.items);
    if (rows.length >= view.total) return rows;
  }
}

/** What the Portal holds, read the long way round: the rows a complete reconcile must match. */
async function portalTruth() {
  const truth = new Map<string, { name: string | null; stage: string; contact: string | null; application: string | null; progress: number | null; submitted: string | null }>();
  let cursor: string | null = null;
  do {
    const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = (await portal.read(BusinessPage, `businesses/?page_size=100${q}`)).data;
    for (const s of page.items) {
      const status = (await portal.read(BusinessStatusResult, `businesses/${s.id}/status/`)).data;
      const people = (await portal.read(ParticipantList, `businesses/${s.id}/people/`)).data;
      const app = status.application ? (await portal.read(ApplicationEnvelope, status.application.url)).data.application : null;
      const contact = people.items.find((p) => p.is_primary) ?? people.items[0];
      truth.set(s.id, {
        name: s.name,
        stage: status.business.workflow.stage.id,
        contact: contact?.full_name || null,
        application: app?.id ?? null,
        progress: app?.progress?.percent ?? null,
        submitted: app?.submitted_at ? new Date(app.submitted_at).toISOString() : null,
      });
    }
    cursor = page.next_cursor;
  } while (cursor);
  return truth;
}

function rowFacts(r: WorkspaceBusiness) {
  return {
    name: r.name,
    stage: r.stage?.id ?? '',
    contact: r.contact_name,
    application: r.application?.id ?? null,
    progress: r.application?.progress_percent ?? null,
    submitted: r.application?.submitted_at ?? null,
  };
}

beforeAll(async () => {
  const pg = inject('testPostgres');
  if (!pg?.url) throw new Error(`PostgreSQL is needed: ${pg?.error ?? 'not started'}`);
  pgUrl = pg.url;
  const webhookSecret = newWebhookSecret();
  sandbox = await startSandbox({ port: 0, rateLimit: null, controls: true, webhookSecret });
  portal = new SandboxClient(sandbox, KEYS.full);
  schema = `ws_${process.pid}_${randomBytes(3).toString('hex')}`;
  await adminQuery(pgUrl, `CREATE SCHEMA ${schema}`);
  const databaseUrl = withSearchPath(pgUrl, schema);
  db = await createDb({ url: databaseUrl });
  const env = {
    PORTAL_BASE_URL: sandbox.baseUrl,
    PORTAL_API_KEY: KEYS.full,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET,
    WEBHOOK_SECRET: webhookSecret,
    WORKSPACE_RECONCILE_MINUTES: '0',
    LOG_LEVEL: 'info',
  };
  const dir = mkdtempSync(join(tmpdir(), 'bff-ws-'));
  logs = { a: join(dir, 'a.log'), b: join(dir, 'b.log') };
  [a, b] = await Promise.all([startNextServer({ env, logFile: logs.a }), startNextServer({ env, logFile: logs.b })]);
  sandbox.webhooks.retarget(`${a.url}/api/webhooks/portal`);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await sandbox?.close();
  await db?.close();
  if (schema) await adminQuery(pgUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

describe('the workspace reconciler', () => {
  it('repairs every row after lost webhooks and changes made directly in the Portal', async () => {
    const staff = await staffOn(a);
    await reconcileOn(staff);
    const first = await allRows(staff);
    expect(first.length).toBeGreaterThan(0);

    let createdId = '';
    await control('PUT', 'webhooks', { paused: true });
    try {
      // Changes the BFF neither made nor hears of.
      const created = (await createBusiness(portal, { name: 'Directly Made Ltd', contact: { full_name: 'Dana Direct', email: 'dana@example.test' } })).data;
      createdId = created.business.id;
      const moved = first.find((r) => r.stage)!;
      const stages = (await portal.get<{ items: Array<{ id: string }> }>(`business-pipelines/${moved.pipeline!.id}/stages/`)).body.items;
      const target = stages.find((s) => s.id !== moved.stage!.id)!;
      const status = await portal.get(`businesses/${moved.id}/status/`);
      const transition = await portal.post(`businesses/${moved.id}/stage-transitions/`, {
        body: { stage_id: target.id },
        ifMatch: status.headers.get('etag')!,
        idempotencyKey: newKey('stage'),
      });
      expect(transition.status).toBe(200);
      await mustWriteAnswers(portal, created.application.id, [w('legal_name', 'Directly Made Limited')]);
      const deal = await portal.post<{ id: string }>('deals/', { body: { name: 'Direct deal', business_id: created.business.id }, idempotencyKey: newKey('deal') });
      expect(deal.status).toBe(201);
      await createProject(portal, created.business.id, 'Direct project');

      // The read model has not heard.
      const stale = await allRows(staff);
      expect(stale.map((r) => r.id)).not.toContain(created.business.id);
      expect(stale.find((r) => r.id === moved.id)!.stage!.id).toBe(moved.stage!.id);
    } finally {
      await control('PUT', 'webhooks', { paused: false });
    }

    const pass = await reconcileOn(staff);
    expect(pass.last_pass.upstream_calls).toBeGreaterThan(0);
    const truth = await portalTruth();
    const rows = await allRows(staff);
    expect(new Map(rows.map((r) => [r.id, rowFacts(r)]))).toEqual(truth);

    // Deals know their business (learned from the per-business lists) and projects are there.
    const deals = (await portal.read(DealPage, 'deals/?page_size=100')).data.items;
    const known = await db.query<{ id: string; business_id: string | null }>('SELECT id, business_id FROM workspace_deals');
    expect(new Set(known.map((d) => d.id))).toEqual(new Set(deals.map((d) => d.id)));
    const direct = known.find((d) => deals.find((x) => x.id === d.id)?.name === 'Direct deal');
    expect(direct?.business_id).toBe(createdId);
    const projects = (await portal.read(ProjectPage, 'projects/?page_size=100')).data.items;
    const rowsP = await db.query<{ id: string }>('SELECT id FROM workspace_projects');
    expect(new Set(rowsP.map((p) => p.id))).toEqual(new Set(projects.map((p) => p.id)));

    // A Portal that lost businesses (a reset to the seed): the pass removes their rows.
    await control('POST', 'reset');
    await reconcileOn(staff);
    const afterReset = await allRows(staff);
    expect(afterReset.map((r) => r.id).sort()).toEqual([...(await portalTruth()).keys()].sort());
    expect(afterReset.map((r) => r.id)).not.toContain(createdId);
  });

  it('resumes a stopped pass after the last page it finished, and waits out a 429 Retry-After', async () => {
    const staff = await staffOn(a);
    await control('POST', 'businesses', { generate: 150, seed: 3 });
    const firstPage = (await portal.read(BusinessPage, 'businesses/?page_size=100')).data;
    const secondPage = (await portal.read(BusinessPage, `businesses/?page_size=100&cursor=${encodeURIComponent(firstPage.next_cursor!)}`)).data;
    const broken = secondPage.items[0]!.id;
    // One business of the second page cannot be read: the pass stops there, its cursor kept.
    await control('PUT', 'faults', { rate_5xx: 1, paths: [`businesses/${broken}/status/`] });
    try {
      expect((await staff.post('/api/workspace/reconcile', { body: {} })).status).toBe(202);
      await until(
        async () => (await staff.get<LastPass & { freshness: { last_error: string | null } }>('/api/workspace/reconcile')).body.freshness,
        (f) => !f.reconciling && !!f.last_error,
        'the pass to stop',
      );
    } finally {
      await control('DELETE', 'faults');
    }
    const stopped = await db.one<{ pass_id: string | null; cursor: string | null; businesses_done: number }>(
      `SELECT pass_id, cursor, businesses_done FROM workspace_sync WHERE name = 'reconcile'`,
    );
    expect(stopped).toMatchObject({ pass_id: expect.any(String), cursor: expect.any(String), businesses_done: 100 });
    const readBefore = await db.one<{ refreshed_at: Date }>('SELECT refreshed_at FROM workspace_businesses WHERE id = $1', [firstPage.items[0]!.id]);

    // The next pass picks up at the second page (the first page's rows are not read again), through a 429.
    await control('PUT', 'faults', { rate_429: 1, retry_after_seconds: 1, paths: [`businesses/${broken}/people/`] });
    const lifted = setTimeout(() => void control('DELETE', 'faults'), 4_000);
    try {
      await reconcileOn(staff);
    } finally {
      clearTimeout(lifted);
      await control('DELETE', 'faults');
    }
    // The pass's last line, once it is in the file (the server writes its log asynchronously).
    const finishedLines = async () => readFileSync(logs.a, 'utf8').split('\n').filter((l) => l.includes('read model reconcile finished'));
    const ofPass = (l: string) => l.includes(`"pass":"${stopped!.pass_id}"`);
    const log = (await until(finishedLines, (ls) => ls.some(ofPass), 'the resumed pass to be logged')).find(ofPass)!;
    expect(JSON.parse(log)).toMatchObject({ resumed: true, pass: stopped!.pass_id });
    const readAfter = await db.one<{ refreshed_at: Date }>('SELECT refreshed_at FROM workspace_businesses WHERE id = $1', [firstPage.items[0]!.id]);
    expect(readAfter!.refreshed_at).toEqual(readBefore!.refreshed_at);
    expect(await db.one('SELECT id FROM workspace_businesses WHERE id = $1', [broken])).not.toBeNull();
    expect((await allRows(staff)).length).toBe((await portalTruth()).size);
  }, 120_000);

  it('lets one instance reconcile at a time on a shared PostgreSQL', async () => {
    const onA = await staffOn(a);
    const onB = await staffOn(b);
    // Slow enough that the pass on A is still running when B is asked.
    await control('PUT', 'faults', { latency_ms: 40 });
    try {
      expect((await onA.post('/api/workspace/reconcile', { body: {} })).status).toBe(202);
      await until(async () => (await onB.get<LastPass>('/api/workspace/reconcile')).body.freshness.reconciling, (r) => r, 'B to see A reconciling');
      expect((await onB.post('/api/workspace/reconcile', { body: {} })).status).toBe(202);
      await until(async () => readFileSync(logs.b, 'utf8'), (t) => t.includes('another instance is reconciling'), 'B to skip its pass');
      await until(async () => (await onA.get<LastPass>('/api/workspace/reconcile')).body.freshness.reconciling, (r) => !r, 'A to finish', 120_000);
    } finally {
      await control('DELETE', 'faults');
    }
    const finished = (log: string) => readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('read model reconcile finished')).length;
    expect(finished(logs.b)).toBe(0);
    expect(finished(logs.a)).toBeGreaterThan(0);
  });
});
