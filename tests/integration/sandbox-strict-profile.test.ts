// The sandbox's strict profile (SANDBOX_PROFILE=strict) serves only what the spec guarantees, and its
// openapi.json describes exactly that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusinessStatusResult } from '@/lib/portal';
import { routeTable } from '@/server/sandbox/handlers';
import { startSandbox, type RunningSandbox } from '@/server/sandbox/server';
import { appPath, freshApplication } from './support/applications';
import { KEYS, SandboxClient, newKey } from './support/sandbox';

let sandbox: RunningSandbox;
let portal: SandboxClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: null, profile: 'strict' });
  portal = new SandboxClient(sandbox, KEYS.full);
});
afterAll(() => sandbox?.close());

const DEAL_FIELDS = ['id', 'object', 'revision', 'application', 'project', 'recipient', 'name', 'status', 'workflow', 'created_at', 'updated_at', 'url', 'is_sample'];

describe('the strict profile', () => {
  it('has no operation the spec does not name: no pipeline or recipient lists, no funding', async () => {
    for (const path of ['business-pipelines/', 'deal-pipelines/', 'recipients/', 'projects/', 'matches/match_x/', 'match-runs/mrun_x/', 'project-criteria/proj_x/']) {
      expect((await portal.get(path)).status, path).toBe(404);
    }
    expect((await portal.post('projects/', { body: { business_id: 'biz_brightpath', name: 'x' }, idempotencyKey: newKey('p') })).status).toBe(404);
  });

  it('takes no query parameter but page_size and cursor (and section_key on answers), at most 100 a page', async () => {
    const deals = await portal.get<{ error: { details: Array<{ parameter?: string }> } }>('deals/?business_id=biz_brightpath');
    expect(deals.status).toBe(400);
    expect(deals.body.error.details).toContainEqual(expect.objectContaining({ parameter: 'business_id' }));
    const appId = await freshApplication(portal, 'Strict Profile Ltd');
    const files = await portal.get(`${appPath(appId)}files/?block_key=bank_statements`);
    expect(files.status).toBe(400);
    expect((await portal.get(`${appPath(appId)}repeatable-items/owners/?parent_item_id=ritem_x`)).status).toBe(400);
    expect((await portal.get('businesses/?page_size=101')).status).toBe(400);
    expect((await portal.get('businesses/?page_size=100')).status).toBe(200);
    expect((await portal.get(`${appPath(appId)}answers/?page_size=500`)).status).toBe(400);
    expect((await portal.get(`${appPath(appId)}answers/?page_size=100&section_key=business`)).status).toBe(200);
  });

  it('replies with the spec’s fields where it lists them, and leanly where it does not', async () => {
    const root = await portal.get<Record<string, unknown>>('');
    expect(root.body).toEqual({ object: 'api_root', portal: expect.any(Object), key: { permissions: expect.any(Array), channel_slugs: [] } });
    const status = (await portal.read(BusinessStatusResult, 'businesses/biz_brightpath/status/')).data;
    const stages = await portal.get<{ items: object[] }>(status.business.workflow.stages_url);
    expect(stages.body.items.length).toBeGreaterThan(0);
    for (const s of stages.body.items) expect(Object.keys(s).sort()).toEqual(['id', 'name']);
    const deals = await portal.get<{ items: Array<Record<string, unknown>> }>('deals/?page_size=100');
    for (const d of deals.body.items) for (const k of Object.keys(d)) expect(DEAL_FIELDS, k).toContain(k);
    const bad = await portal.get<{ error: Record<string, unknown> }>('businesses/biz_nope/status/');
    expect(bad.status).toBe(404);
    expect(bad.body.error).toMatchObject({ code: 'not_found', documentation_url: expect.stringContaining('/docs/errors#not_found') });
  });

  it('versions the answer set by answers_revision alone: no ETag, If-Match optional, a stale revision 412', async () => {
    const appId = await freshApplication(portal, 'Strict Revision Ltd');
    const read = await portal.get<{ answers_revision: number }>(`${appPath(appId)}answers/`);
    expect(read.headers.get('etag')).toBeNull();
    expect((await portal.get(`${appPath(appId)}repeatable-items/owners/`)).headers.get('etag')).toBeNull();
    const write = (revision: number) =>
      portal.patch(`${appPath(appId)}answers/`, { body: { answers_revision: revision, answers: [{ block_key: 'legal_name', schema_key: 'legal_name', field_key: 'value', value: 'Strict Revision Limited' }] } });
    const ok = await write(read.body.answers_revision);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.headers.get('etag')).toBeNull();
    expect((await write(read.body.answers_revision)).status).toBe(412);
  });

  it("describes exactly what it serves in its openapi.json", async () => {
    const doc = (await portal.get<{ paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string; schema: { maximum?: number } }> }>> }>('openapi.json')).body;
    const served = routeTable('strict').map((r) => `${r.method} /${r.path.replace(/:([a-z_]+)/g, '{$1}')}`);
    const described = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(described.sort()).toEqual(served.sort());
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const op of Object.values(ops)) {
        const query = op.parameters.filter((p) => p.in === 'query');
        for (const p of query) expect(path.endsWith('/answers/') ? ['page_size', 'cursor', 'section_key'] : ['page_size', 'cursor'], `${path} ${p.name}`).toContain(p.name);
        const pageSize = query.find((p) => p.name === 'page_size');
        if (pageSize) expect(pageSize.schema.maximum, path).toBe(100);
      }
    }
    expect(doc.paths['/recipients/']).toBeUndefined();
    expect(doc.paths['/projects/']).toBeUndefined();
  });
});
