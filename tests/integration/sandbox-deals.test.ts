import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deal, DealApplication, DealPage, DealPipelinePage, DealStagePage, RecipientPage } from '@/lib/portal';
import type { SandboxEvent } from '@/server/sandbox/events';
import { DEMO_KEYS, type ApiKeyDef } from '@/server/sandbox/keys';
import { buildFunders } from '@/server/sandbox/seed/funders';
import { createDeal } from './support/deal-applications';
import { startSandbox } from '@/server/sandbox/server';
import { createBusiness } from './support/businesses';
import { KEYS, SandboxClient, expectError, newKey, setupSandbox, keyWith } from './support/sandbox';

const DEALS_READ = keyWith('deals read', ['deals:read']);
const DEALS_WRITE = keyWith('deals write', ['deals:write']);
const NO_DEALS = keyWith('no deals', ['businesses:read', 'businesses:write', 'applications:read', 'applications:write', 'people:read']);

const ctx = setupSandbox({ keys: [...DEMO_KEYS, DEALS_READ, DEALS_WRITE, NO_DEALS] });

/** Events published while the file's tests run. */
const events: SandboxEvent[] = [];
let unsubscribe = () => {};
beforeAll(() => {
  unsubscribe = ctx.running.sandbox.events.subscribe((e) => events.push(e));
});
afterAll(() => unsubscribe());

/** Seeded deals in creation order (the keyset of deal pages). */
const SEEDED = ['deal_pinecrestbrewhouse', 'deal_pinecrestfleet', 'deal_sunriseoven', 'deal_bluewaverevolver', 'deal_oakridgerefit', 'deal_meridiancnc'];

const STAGES = [
  ['dstg_draft', 'Draft'],
  ['dstg_submittedtorecipient', 'Submitted to recipient'],
  ['dstg_inreview', 'In review'],
  ['dstg_offermade', 'Offer made'],
  ['dstg_won', 'Won'],
  ['dstg_lost', 'Lost'],
] as const;

/** The lenders deals were made for first, then the other funders of the seed (DESIGN.md §6). */
const RECIPIENTS = [
  ['rcpt_harbourbank', 'Harbour Bank Business Finance'],
  ['rcpt_summitcredit', 'Summit Credit Partners'],
  ['rcpt_ironbridge', 'Ironbridge Asset Finance'],
  ['rcpt_evergreen', 'Evergreen Community Lending'],
  ['rcpt_calderinvoice', 'Calder Invoice Finance'],
  ...buildFunders()
    .slice(5)
    .map((f) => [f.recipient_id, f.name] as const),
] as const;
const chunks = <T>(list: readonly T[], size: number) => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

async function allDeals(client: SandboxClient, query = '') {
  const { data } = await client.read(DealPage, `deals/?page_size=100${query}`);
  expect(data.next_cursor).toBeNull();
  return data.items;
}

/** Walks a collection forward to its end, then back to its start, with `pageSize`; returns the ids both ways. */
async function walk(client: SandboxClient, schema: typeof DealPage | typeof RecipientPage, path: string, pageSize: number) {
  const sep = path.includes('?') ? '&' : '?';
  const forward: string[][] = [];
  let { data } = await client.read(schema, `${path}${sep}page_size=${pageSize}`);
  expect(data.previous_cursor).toBeNull();
  forward.push(data.items.map((i) => i.id));
  while (data.next_cursor) {
    ({ data } = await client.read(schema, `${path}${sep}page_size=${pageSize}&cursor=${encodeURIComponent(data.next_cursor)}`));
    forward.push(data.items.map((i) => i.id));
  }
  const backward: string[][] = [data.items.map((i) => i.id)];
  while (data.previous_cursor) {
    ({ data } = await client.read(schema, `${path}${sep}page_size=${pageSize}&cursor=${encodeURIComponent(data.previous_cursor)}`));
    backward.unshift(data.items.map((i) => i.id));
  }
  return { forward, backward };
}

describe('recipients', () => {
  it('lists the lenders a deal can be made for', async () => {
    const { data } = await ctx.client.read(RecipientPage, 'recipients/?page_size=100');
    expect(data).toEqual({
      object: 'list',
      items: RECIPIENTS.map(([id, name]) => ({ id, object: 'recipient', name })),
      next_cursor: null,
      previous_cursor: null,
    });
  });

  it('pages forward and back', async () => {
    const { forward, backward } = await walk(ctx.client, RecipientPage, 'recipients/', 2);
    expect(forward).toEqual(chunks(RECIPIENTS, 2).map((p) => p.map(([id]) => id)));
    expect(backward).toEqual(forward);
  });

  it('rejects unsupported parameters', async () => {
    const error = expectError(await ctx.client.get('recipients/?name=Harbour'), 400, 'invalid_request');
    expect(error.details).toEqual([expect.objectContaining({ code: 'unsupported_parameter', parameter: 'name' })]);
  });
});

describe('deal pipelines and stages', () => {
  it('lists the Funding deals pipeline with its stages_url', async () => {
    const { data } = await ctx.client.read(DealPipelinePage, 'deal-pipelines/');
    expect(data.items).toEqual([
      { id: 'dpipe_funding', object: 'deal_pipeline', name: 'Funding deals', stages_url: `${ctx.client.baseUrl}deal-pipelines/dpipe_funding/stages/` },
    ]);
  });

  it('lists the stages in order, and pages them', async () => {
    const { data } = await ctx.client.read(DealStagePage, 'deal-pipelines/dpipe_funding/stages/');
    expect(data.items).toEqual(
      STAGES.map(([id, name], order) => ({ id, object: 'deal_stage', name, order, pipeline: { id: 'dpipe_funding', name: 'Funding deals' } })),
    );
    const first = await ctx.client.read(DealStagePage, 'deal-pipelines/dpipe_funding/stages/?page_size=4');
    expect(first.data.items.map((s) => s.id)).toEqual(STAGES.slice(0, 4).map(([id]) => id));
    const second = await ctx.client.read(DealStagePage, `deal-pipelines/dpipe_funding/stages/?page_size=4&cursor=${encodeURIComponent(first.data.next_cursor!)}`);
    expect(second.data.items.map((s) => s.id)).toEqual(STAGES.slice(4).map(([id]) => id));
    expect(second.data.next_cursor).toBeNull();
  });

  it('answers 404 for an unknown pipeline, including a business pipeline', async () => {
    expectError(await ctx.client.get('deal-pipelines/dpipe_nope/stages/'), 404, 'not_found');
    expectError(await ctx.client.get('deal-pipelines/bpipe_onboarding/stages/'), 404, 'not_found');
  });
});

describe('deal list', () => {
  it('lists the seeded deals oldest first, each a strict Deal', async () => {
    const items = await allDeals(ctx.client);
    expect(items.slice(0, SEEDED.length).map((d) => d.id)).toEqual(SEEDED);
  });

  it('walks pages forward and back without gaps or repeats', async () => {
    const ids = (await allDeals(ctx.client)).map((d) => d.id);
    const { forward, backward } = await walk(ctx.client, DealPage, 'deals/', 2);
    expect(forward.flat()).toEqual(ids);
    expect(forward.slice(0, -1).every((p) => p.length === 2)).toBe(true);
    expect(backward).toEqual(forward);
  });

  it('filters by business_id, with cursors bound to the filter', async () => {
    const pinecrest = await allDeals(ctx.client, '&business_id=biz_pinecrest');
    expect(pinecrest.map((d) => d.id)).toEqual(['deal_pinecrestbrewhouse', 'deal_pinecrestfleet']);
    expect(await allDeals(ctx.client, '&business_id=biz_harbourcafe')).toEqual([]);
    // A well-formed id of no business is a filter that matches nothing.
    expect(await allDeals(ctx.client, '&business_id=biz_doesnotexist')).toEqual([]);

    const { forward } = await walk(ctx.client, DealPage, 'deals/?business_id=biz_pinecrest', 1);
    expect(forward).toEqual([['deal_pinecrestbrewhouse'], ['deal_pinecrestfleet']]);

    const { data } = await ctx.client.read(DealPage, 'deals/?business_id=biz_pinecrest&page_size=1');
    const reused = await ctx.client.get(`deals/?page_size=1&cursor=${encodeURIComponent(data.next_cursor!)}`);
    expect(expectError(reused, 400, 'invalid_request').details).toEqual([expect.objectContaining({ parameter: 'cursor' })]);
  });

  it('validates business_id as a business id and rejects unsupported parameters', async () => {
    for (const bad of ['ciappl_meridian', 'BIZ_MERIDIAN', 'biz_', 'deal_meridiancnc']) {
      const error = expectError(await ctx.client.get(`deals/?business_id=${bad}`), 400, 'invalid_request');
      expect(error.details).toEqual([expect.objectContaining({ parameter: 'business_id' })]);
    }
    const error = expectError(await ctx.client.get('deals/?status=open'), 400, 'invalid_request');
    expect(error.details).toEqual([expect.objectContaining({ code: 'unsupported_parameter', parameter: 'status' })]);
    expectError(await ctx.client.get('deals/?page_size=0'), 400, 'invalid_request');
    expectError(await ctx.client.get('deals/?page_size=101'), 400, 'invalid_request');
  });
});

describe('deal read', () => {
  it('reads the Portal’s own deal: no recipient, its application and workflow', async () => {
    const { res, data } = await ctx.client.read(Deal, 'deals/deal_meridiancnc/');
    expect(res.headers.get('etag')).toBe('"deal-deal_meridiancnc-0"');
    const base = ctx.client.baseUrl;
    expect(data).toEqual({
      id: 'deal_meridiancnc',
      object: 'deal',
      revision: 0,
      application: { id: 'dapp_meridiancnc', object: 'deal_application', url: `${base}deal-applications/dapp_meridiancnc/` },
      project: null,
      recipient: null,
      match: null,
      name: 'Meridian Engineering – CNC equipment finance',
      status: 'open',
      workflow: {
        pipeline: { id: 'dpipe_funding', name: 'Funding deals' },
        stage: { id: 'dstg_draft', name: 'Draft' },
        stages_url: `${base}deal-pipelines/dpipe_funding/stages/`,
      },
      created_at: data.created_at,
      updated_at: data.created_at,
      url: `${base}deals/deal_meridiancnc/`,
    });
    // The application summary's url reads the deal application.
    const app = await ctx.client.read(DealApplication, (data.application as { url: string }).url);
    expect(app.data.id).toBe('dapp_meridiancnc');
  });

  it('reads deals for recipients, with the status of closing stages and the sample flag', async () => {
    const won = (await ctx.client.read(Deal, 'deals/deal_pinecrestbrewhouse/')).data;
    expect(won.recipient).toEqual({ id: 'rcpt_summitcredit', object: 'recipient', name: 'Summit Credit Partners' });
    expect([won.status, won.workflow.stage]).toEqual(['won', { id: 'dstg_won', name: 'Won' }]);
    expect((await ctx.client.read(Deal, 'deals/deal_pinecrestfleet/')).data.status).toBe('lost');
    const sample = (await ctx.client.read(Deal, 'deals/deal_sunriseoven/')).data;
    expect(sample.is_sample).toBe(true);
    expect(won).not.toHaveProperty('is_sample');
  });

  it('answers 404 for unknown deals', async () => {
    expectError(await ctx.client.get('deals/deal_nope/'), 404, 'not_found');
    expectError(await ctx.client.get('deals/biz_meridian/'), 404, 'not_found');
    expectError(await ctx.client.post('deals/deal_nope/stage-transitions/', { body: { stage_id: 'dstg_won' }, ifMatch: '"x"', idempotencyKey: newKey() }), 404, 'not_found');
  });
});

describe('deal create', () => {
  it('creates a deal for the Portal itself at the first stage, with an empty deal application', async () => {
    const before = await allDeals(ctx.client);
    const seen = events.length;
    const { res, deal } = await createDeal(ctx.client, { name: '  Meridian – second machine  ', business_id: 'biz_meridian' });
    const base = ctx.client.baseUrl;
    expect(deal).toEqual({
      id: deal.id,
      object: 'deal',
      revision: 0,
      application: { id: expect.stringMatching(/^dapp_[a-z0-9]+$/), object: 'deal_application', url: expect.any(String) },
      project: null,
      recipient: null,
      match: null,
      name: 'Meridian – second machine',
      status: 'open',
      workflow: { pipeline: { id: 'dpipe_funding', name: 'Funding deals' }, stage: { id: 'dstg_draft', name: 'Draft' }, stages_url: `${base}deal-pipelines/dpipe_funding/stages/` },
      created_at: deal.created_at,
      updated_at: deal.created_at,
      url: `${base}deals/${deal.id}/`,
    });
    const appRef = deal.application as { id: string; url: string };
    expect(appRef.url).toBe(`${base}deal-applications/${appRef.id}/`);
    expect(res.headers.get('location')).toBe(deal.url);
    expect(res.headers.get('etag')).toBe(`"deal-${deal.id}-0"`);

    expect(await allDeals(ctx.client)).toEqual([...before, deal]);
    expect((await allDeals(ctx.client, '&business_id=biz_meridian')).map((d) => d.id)).toEqual(['deal_meridiancnc', deal.id]);
    const read = await ctx.client.read(Deal, deal.url);
    expect(read.data).toEqual(deal);

    const app = (await ctx.client.read(DealApplication, appRef.url)).data;
    expect(app).toMatchObject({ id: appRef.id, revision: 0, answers_revision: 0, status: 'not_started', submitted_at: null });

    expect(events.slice(seen).filter((e) => e.type === 'deal.created').map((e) => e.data)).toEqual([
      {
        deal_id: deal.id,
        business_id: 'biz_meridian',
        recipient_id: null,
        application_id: appRef.id,
        pipeline_id: 'dpipe_funding',
        stage: { id: 'dstg_draft', name: 'Draft' },
        status: 'open',
        revision: 0,
      },
    ]);
  });

  it('creates a deal for a recipient', async () => {
    const { deal } = await createDeal(ctx.client, { name: 'Harbour Street Café – espresso machines', business_id: 'biz_harbourcafe', recipient_id: 'rcpt_calderinvoice' });
    expect(deal.recipient).toEqual({ id: 'rcpt_calderinvoice', object: 'recipient', name: 'Calder Invoice Finance' });
    expect((await allDeals(ctx.client, '&business_id=biz_harbourcafe')).map((d) => d.id)).toEqual([deal.id]);
  });

  it('replays an identical retry and refuses a reused key for another body', async () => {
    const key = newKey('deal');
    const body = { name: 'Oakridge – van', business_id: 'biz_oakridge', recipient_id: 'rcpt_ironbridge' };
    const first = await ctx.client.post('deals/', { body, idempotencyKey: key });
    expect(first.status).toBe(201);
    const count = (await allDeals(ctx.client)).length;
    const again = await ctx.client.post('deals/', { body, idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect((await allDeals(ctx.client)).length).toBe(count);

    const reused = await ctx.client.post('deals/', { body: { ...body, name: 'Oakridge – two vans' }, idempotencyKey: key });
    expect(expectError(reused, 422, 'idempotency_key_reused').details).toEqual([expect.objectContaining({ parameter: 'Idempotency-Key' })]);
    expect((await allDeals(ctx.client)).length).toBe(count);
  });

  it('requires an Idempotency-Key', async () => {
    const res = await ctx.client.post('deals/', { body: { name: 'No key', business_id: 'biz_oakridge' } });
    expect(expectError(res, 400, 'invalid_request').details).toEqual([expect.objectContaining({ code: 'missing_header', parameter: 'Idempotency-Key' })]);
  });

  it('names an unknown business and an unknown recipient, creating nothing', async () => {
    const count = (await allDeals(ctx.client)).length;
    const post = (body: unknown) => ctx.client.post('deals/', { body, idempotencyKey: newKey('deal') });
    const detailsOf = (e: { details: Array<{ code: string; parameter?: string }> }) => e.details.map((d) => [d.code, d.parameter]);

    let error = expectError(await post({ name: 'Ghost', business_id: 'biz_doesnotexist' }), 422, 'validation_failed');
    expect(detailsOf(error)).toEqual([['unknown_business', 'business_id']]);
    error = expectError(await post({ name: 'Ghost', business_id: 'biz_meridian', recipient_id: 'rcpt_nobody' }), 422, 'validation_failed');
    expect(detailsOf(error)).toEqual([['unknown_recipient', 'recipient_id']]);
    error = expectError(await post({ name: 'Ghost', business_id: 'biz_doesnotexist', recipient_id: 'rcpt_nobody' }), 422, 'validation_failed');
    expect(detailsOf(error)).toEqual([
      ['unknown_business', 'business_id'],
      ['unknown_recipient', 'recipient_id'],
    ]);

    // Malformed bodies name each property.
    error = expectError(await post({ business_id: 'meridian', recipient_id: null, extra: 1 }), 422, 'validation_failed');
    expect(error.details.map((d) => d.parameter).sort()).toEqual(['business_id', 'extra', 'name', 'recipient_id']);
    expectError(await post({ name: '   ', business_id: 'biz_meridian' }), 422, 'validation_failed');

    expect((await allDeals(ctx.client)).length).toBe(count);
  });
});

describe('deal stage transitions', () => {
  it('enforces If-Match, Idempotency-Key, a stage of the pipeline and a move; returns the updated deal', async () => {
    const { deal } = await createDeal(ctx.client, { name: 'Bluewave – studio fit-out', business_id: 'biz_bluewave', recipient_id: 'rcpt_evergreen' });
    const url = `deals/${deal.id}/stage-transitions/`;
    const etag0 = `"deal-${deal.id}-0"`;
    const move = (stage_id: string, o: { ifMatch?: string; idempotencyKey?: string } = {}) =>
      ctx.client.post(url, { body: { stage_id }, ifMatch: o.ifMatch ?? etag0, idempotencyKey: o.idempotencyKey ?? newKey('move') });

    expectError(await ctx.client.post(url, { body: { stage_id: 'dstg_inreview' }, idempotencyKey: newKey() }), 428, 'precondition_required');
    expect(expectError(await ctx.client.post(url, { body: { stage_id: 'dstg_inreview' }, ifMatch: etag0 }), 400, 'invalid_request').details).toEqual([
      expect.objectContaining({ parameter: 'Idempotency-Key' }),
    ]);
    expectError(await move('dstg_inreview', { ifMatch: `"deal-${deal.id}-7"` }), 412, 'precondition_failed');
    for (const bad of ['dstg_nope', 'bstg_newlead']) {
      expect(expectError(await move(bad), 422, 'validation_failed').details).toEqual([expect.objectContaining({ code: 'invalid_stage', parameter: 'stage_id' })]);
    }
    expectError(await ctx.client.post(url, { body: {}, ifMatch: etag0, idempotencyKey: newKey() }), 422, 'validation_failed');
    expect(expectError(await move('dstg_draft'), 409, 'conflict').details).toEqual([expect.objectContaining({ code: 'same_stage' })]);

    const seen = events.length;
    const key = newKey('move');
    const res = await move('dstg_submittedtorecipient', { idempotencyKey: key });
    expect(res.status).toBe(200);
    const moved = Deal.parse(res.body);
    expect(moved).toEqual({
      ...deal,
      revision: 1,
      workflow: { ...deal.workflow, stage: { id: 'dstg_submittedtorecipient', name: 'Submitted to recipient' } },
      updated_at: moved.updated_at,
    });
    expect(Date.parse(moved.updated_at)).toBeGreaterThanOrEqual(Date.parse(deal.updated_at));
    expect(res.headers.get('etag')).toBe(`"deal-${deal.id}-1"`);
    const read = await ctx.client.read(Deal, deal.url);
    expect(read.data).toEqual(moved);
    expect(read.res.headers.get('etag')).toBe(`"deal-${deal.id}-1"`);
    expect(events.slice(seen).map((e) => [e.type, e.data])).toEqual([
      [
        'deal.stage_changed',
        {
          deal_id: deal.id,
          business_id: 'biz_bluewave',
          recipient_id: 'rcpt_evergreen',
          application_id: (deal.application as { id: string }).id,
          pipeline_id: 'dpipe_funding',
          stage: { id: 'dstg_submittedtorecipient', name: 'Submitted to recipient' },
          previous_stage: { id: 'dstg_draft', name: 'Draft' },
          status: 'open',
          revision: 1,
        },
      ],
    ]);

    // An identical retry is replayed; the old ETag is now stale.
    const replay = await move('dstg_submittedtorecipient', { idempotencyKey: key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(res.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectError(await move('dstg_won'), 412, 'precondition_failed');

    const won = await move('dstg_won', { ifMatch: `"deal-${deal.id}-1"` });
    expect(Deal.parse(won.body)).toMatchObject({ revision: 2, status: 'won', workflow: { stage: { id: 'dstg_won', name: 'Won' } } });
    // Moving a deal does not touch its application.
    const app = await ctx.client.read(DealApplication, (deal.application as { url: string }).url);
    expect(app.data.revision).toBe(0);
  });
});

describe('deal permissions', () => {
  const as = (key: ApiKeyDef) => ({ key: key.token });

  it('lets deals:read read deals, pipelines, stages and recipients, and nothing more', async () => {
    for (const path of ['deals/', 'deals/deal_meridiancnc/', 'deal-pipelines/', 'deal-pipelines/dpipe_funding/stages/', 'recipients/']) {
      expect((await ctx.client.get(path, as(DEALS_READ))).status, path).toBe(200);
    }
    const create = await ctx.client.post('deals/', { ...as(DEALS_READ), body: { name: 'Nope', business_id: 'biz_meridian' }, idempotencyKey: newKey() });
    expect(expectError(create, 403, 'forbidden').details).toEqual([expect.objectContaining({ code: 'missing_permission', message: 'Requires deals:write.' })]);
    const move = await ctx.client.post('deals/deal_meridiancnc/stage-transitions/', {
      ...as(DEALS_READ),
      body: { stage_id: 'dstg_inreview' },
      ifMatch: '"deal-deal_meridiancnc-0"',
      idempotencyKey: newKey(),
    });
    expectError(move, 403, 'forbidden');
    expect((await ctx.client.read(Deal, 'deals/deal_meridiancnc/')).data.revision).toBe(0);
    // The demo read-only key has deals:read too.
    expect((await ctx.client.get('deals/', { key: KEYS.readonly })).status).toBe(200);
    expectError(await ctx.client.post('deals/', { key: KEYS.readonly, body: { name: 'Nope', business_id: 'biz_meridian' }, idempotencyKey: newKey() }), 403, 'forbidden');
  });

  it('lets deals:write create and move deals, and read them (write includes read)', async () => {
    const { deal } = await createDeal(ctx.client, { name: 'Written with deals:write', business_id: 'biz_greenleaf' }, DEALS_WRITE.token);
    const moved = await ctx.client.post(`deals/${deal.id}/stage-transitions/`, {
      ...as(DEALS_WRITE),
      body: { stage_id: 'dstg_lost' },
      ifMatch: `"deal-${deal.id}-0"`,
      idempotencyKey: newKey(),
    });
    expect(moved.status).toBe(200);
    expect((await ctx.client.get(deal.url, as(DEALS_WRITE))).status).toBe(200);
    expect((await ctx.client.get('recipients/', as(DEALS_WRITE))).status).toBe(200);
  });

  it('refuses every deal operation to a key without a deal permission, and the source key', async () => {
    for (const key of [NO_DEALS.token, KEYS.source]) {
      for (const path of ['deals/', 'deals/deal_meridiancnc/', 'deal-pipelines/', 'deal-pipelines/dpipe_funding/stages/', 'recipients/']) {
        expect(expectError(await ctx.client.get(path, { key }), 403, 'forbidden').details).toEqual([
          expect.objectContaining({ code: 'missing_permission', message: 'Requires deals:read.' }),
        ]);
      }
      expectError(await ctx.client.post('deals/', { key, body: { name: 'Nope', business_id: 'biz_meridian' }, idempotencyKey: newKey() }), 403, 'forbidden');
    }
  });
});

describe('an empty seed', () => {
  const empty = setupSandbox({ seed: 'empty' });

  it('keeps the pipeline and recipients but no deals; deals need a business that exists', async () => {
    expect(await allDeals(empty.client)).toEqual([]);
    expect((await empty.client.read(RecipientPage, 'recipients/?page_size=100')).data.items).toHaveLength(RECIPIENTS.length);
    expectError(await empty.client.get('deal-applications/dapp_meridiancnc/'), 404, 'not_found');
    const { data } = await createBusiness(empty.client, { name: 'First Customer Ltd' });
    const { deal } = await createDeal(empty.client, { name: 'First deal', business_id: data.business.id });
    expect((await allDeals(empty.client)).map((d) => d.id)).toEqual([deal.id]);
  });
});

describe('deals in the data file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-deals-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps deals, their stages and their applications across a restart', async () => {
    const dataFile = join(dir, 'state.json');
    const first = await startSandbox({ port: 0, rateLimit: null, dataFile });
    let dealId = '';
    try {
      const c1 = new SandboxClient(first);
      const { deal } = await createDeal(c1, { name: 'Persistent deal', business_id: 'biz_meridian', recipient_id: 'rcpt_summitcredit' });
      dealId = deal.id;
      const moved = await c1.post(`deals/${deal.id}/stage-transitions/`, { body: { stage_id: 'dstg_inreview' }, ifMatch: `"deal-${deal.id}-0"`, idempotencyKey: newKey() });
      expect(moved.status).toBe(200);
    } finally {
      await first.close();
    }
    const second = await startSandbox({ port: 0, rateLimit: null, dataFile });
    try {
      const c2 = new SandboxClient(second);
      const { data } = await c2.read(Deal, `deals/${dealId}/`);
      expect(data).toMatchObject({ revision: 1, workflow: { stage: { id: 'dstg_inreview', name: 'In review' } }, recipient: { id: 'rcpt_summitcredit' } });
      expect((await c2.read(DealApplication, (data.application as { url: string }).url)).data.status).toBe('not_started');
      expect((await allDeals(c2)).map((d) => d.id)).toEqual([...SEEDED, dealId]);
    } finally {
      await second.close();
    }
  });
});
