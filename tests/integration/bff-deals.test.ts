import { describe, expect, it } from 'vitest';
import { PipelineListView, StagesView } from '@/lib/bff/businesses';
import { DealListView, DealView, RecipientListView } from '@/lib/bff/deals';
import { BffErrorBody } from '@/lib/bff/errors';
import { signedIn } from './support/bff';
import { auditRows, createBusiness, createDeal, expectNoPortalUrl, expectStaffOnly, newIdempotencyKey } from './support/bff-businesses';

describe('deal routes', () => {
  it('pages recipients and lists the deal pipelines', async () => {
    const { client } = await signedIn('staff');
    const first = await client.get('/api/recipients?page_size=1');
    expect(first.status).toBe(200);
    const page = RecipientListView.parse(first.body);
    expect(page.items).toHaveLength(1);
    expect(page.next_cursor).not.toBeNull();
    expectNoPortalUrl(first);
    const all = RecipientListView.parse((await client.get('/api/recipients?page_size=100')).body);
    expect(all.items.map((r) => r.id)).toEqual(expect.arrayContaining(['rcpt_harbourbank', 'rcpt_summitcredit']));

    const pipelines = await client.get('/api/deal-pipelines');
    expect(pipelines.status).toBe(200);
    expect(PipelineListView.parse(pipelines.body).items).toContainEqual(expect.objectContaining({ id: 'dpipe_funding' }));
    expectNoPortalUrl(pipelines);
  });

  it('creates a deal for a recipient with an Idempotency-Key, audited with its deal application', async () => {
    const { client, email } = await signedIn('staff');
    const business = (await createBusiness(client)).created.business;
    const { reply, deal } = await createDeal(client, { business_id: business.id, recipient_id: 'rcpt_harbourbank' });
    expect(deal).toMatchObject({ recipient: { id: 'rcpt_harbourbank' }, is_sample: false, application: { id: expect.stringMatching(/^dapp_/) } });
    expect(reply.headers.get('etag')).toBe(deal.etag);
    expectNoPortalUrl(reply);

    expect(await auditRows('deal.create', deal.id)).toEqual([
      expect.objectContaining({ object_type: 'deal', application_id: deal.application!.id, outcome: 'success', status: 201, actor_label: email }),
    ]);

    const forPortal = (await createDeal(client, { business_id: business.id })).deal;
    expect(forPortal.recipient).toBeNull();

    const listed = await client.get(`/api/deals?business_id=${business.id}`);
    expect(listed.status).toBe(200);
    expect(DealListView.parse(listed.body).items.map((d) => d.id)).toEqual([deal.id, forPortal.id]);
    expectNoPortalUrl(listed);
  });

  it('requires an Idempotency-Key and passes the Portal’s 422 details through', async () => {
    const { client } = await signedIn('staff');
    const business = (await createBusiness(client)).created.business;
    const missing = await client.post('/api/deals', { body: { name: 'No key', business_id: business.id } });
    expect(missing.status).toBe(428);
    expect(BffErrorBody.parse(missing.body).error.details[0]).toMatchObject({ parameter: 'Idempotency-Key' });

    const unknown = await client.post('/api/deals', {
      body: { name: 'Nobody', business_id: business.id, recipient_id: 'rcpt_nosuchlender' },
      idempotencyKey: newIdempotencyKey(),
    });
    expect(unknown.status).toBe(422);
    const err = BffErrorBody.parse(unknown.body).error;
    expect(err.request_id).toMatch(/^req_/);
    expect(err.details).toEqual([expect.objectContaining({ code: 'unknown_recipient', parameter: 'recipient_id' })]);
    expectNoPortalUrl(unknown);

    const invalid = await client.post('/api/deals', { body: { name: 'Bad', business_id: 'not-a-business' }, idempotencyKey: newIdempotencyKey() });
    expect(invalid.status).toBe(422);
    expect(BffErrorBody.parse(invalid.body).error.details[0]).toMatchObject({ parameter: 'business_id' });

    expect((await client.get('/api/deals?business_id=nope')).status).toBe(400);
  });

  it('reads a deal and its stages, moves it with If-Match; a stale move gets 412 with the deal now', async () => {
    const { client } = await signedIn('staff');
    const { deal: created } = await createDeal(client);
    const base = `/api/deals/${created.id}`;

    const read = await client.get<{ deal: unknown }>(base);
    expect(read.status).toBe(200);
    const deal = DealView.parse(read.body.deal);
    expect(deal).toEqual(created);
    expect(read.headers.get('etag')).toBe(deal.etag);
    expectNoPortalUrl(read);

    const stagesReply = await client.get(`${base}/stages`);
    expect(stagesReply.status).toBe(200);
    const stages = StagesView.parse(stagesReply.body);
    expect(stages).toMatchObject({ pipeline: deal.workflow.pipeline, current_stage_id: deal.workflow.stage.id });
    expect(stages.items.length).toBeGreaterThan(1);
    expectNoPortalUrl(stagesReply);
    const target = stages.items.find((s) => s.id !== deal.workflow.stage.id)!;

    const moved = await client.post<{ deal: unknown }>(`${base}/stage-transitions`, {
      body: { stage_id: target.id },
      ifMatch: deal.etag,
      idempotencyKey: newIdempotencyKey('move'),
    });
    expect(moved.status, moved.text).toBe(200);
    const after = DealView.parse(moved.body.deal);
    expect(after).toMatchObject({ revision: deal.revision + 1, workflow: { stage: { id: target.id } } });
    expect(moved.headers.get('etag')).toBe(after.etag);
    expectNoPortalUrl(moved);

    const stale = await client.post<{ current: unknown }>(`${base}/stage-transitions`, {
      body: { stage_id: deal.workflow.stage.id },
      ifMatch: deal.etag,
      idempotencyKey: newIdempotencyKey('move'),
    });
    expect(stale.status).toBe(412);
    expect(BffErrorBody.parse(stale.body).error.code).toBe('precondition_failed');
    expect(DealView.parse(stale.body.current)).toEqual(after);
    expectNoPortalUrl(stale);

    const noIfMatch = await client.post(`${base}/stage-transitions`, { body: { stage_id: deal.workflow.stage.id }, idempotencyKey: newIdempotencyKey() });
    expect(noIfMatch.status).toBe(428);
    const noKey = await client.post(`${base}/stage-transitions`, { body: { stage_id: deal.workflow.stage.id }, ifMatch: after.etag });
    expect(noKey.status).toBe(428);
    const invalid = await client.post(`${base}/stage-transitions`, {
      body: { stage_id: 'dstg_nosuchstage' },
      ifMatch: after.etag,
      idempotencyKey: newIdempotencyKey(),
    });
    expect(invalid.status).toBe(422);
    expect(BffErrorBody.parse(invalid.body).error.details[0]).toMatchObject({ code: 'invalid_stage', parameter: 'stage_id' });

    const audit = await auditRows('deal.stage_transition', deal.id);
    expect(audit.map((a) => a.status)).toEqual([200, 412, 428, 428, 422]);
    expect(audit.every((a) => a.object_type === 'deal')).toBe(true);
    expect(audit[0]).toMatchObject({ outcome: 'success', application_id: deal.application!.id });
    expect(audit[1]!.application_id).toBe(deal.application!.id);
  });

  it('reads the seeded sample deal', async () => {
    const { client } = await signedIn('staff');
    const r = await client.get<{ deal: unknown }>('/api/deals/deal_sunriseoven');
    expect(r.status).toBe(200);
    expect(DealView.parse(r.body.deal)).toMatchObject({ id: 'deal_sunriseoven', is_sample: true, application: { id: 'dapp_sunriseoven' } });
    expect((await client.get('/api/deals/deal_nosuchdeal')).status).toBe(404);
  });

  it('is for staff only', async () => {
    const d = 'deal_meridiancnc';
    await expectStaffOnly([
      { method: 'GET', path: '/api/deals' },
      { method: 'POST', path: '/api/deals', body: { name: 'x', business_id: 'biz_harbourcafe' } },
      { method: 'GET', path: `/api/deals/${d}` },
      { method: 'POST', path: `/api/deals/${d}/stage-transitions`, body: { stage_id: 'dstg_x' } },
      { method: 'GET', path: `/api/deals/${d}/stages` },
      { method: 'GET', path: '/api/deal-pipelines' },
      { method: 'GET', path: '/api/recipients' },
    ]);
  });
});
