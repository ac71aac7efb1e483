import { describe, expect, it } from 'vitest';
import { AnswersPageView, AnswersWriteResult, ApplicationView, ContractView, CurrentAnswers } from '@/lib/bff/applications';
import { CurrentItems, ItemDeleteResult, ItemWriteResult, ItemsPageView } from '@/lib/bff/items';
import { BffErrorBody } from '@/lib/bff/errors';
import { signedIn, type BffClient } from './support/bff';
import { auditRows, auditRowsOfApplication, createDeal, expectNoPortalUrl, expectStaffOnly, newIdempotencyKey } from './support/bff-businesses';

async function newDealApplication(client: BffClient) {
  const { deal } = await createDeal(client, { recipient_id: 'rcpt_summitcredit' });
  const id = deal.application!.id;
  return { id, base: `/api/deal-applications/${id}` };
}

async function readApplication(client: BffClient, base: string) {
  const r = await client.get<{ application: unknown }>(base);
  expect(r.status).toBe(200);
  return { reply: r, view: ApplicationView.parse(r.body.application) };
}

async function readAnswers(client: BffClient, base: string) {
  const r = await client.get(`${base}/answers?page_size=500`);
  expect(r.status).toBe(200);
  return AnswersPageView.parse(r.body);
}

describe('deal application routes', () => {
  it('reads the deal application, its contract and its answers without any Portal URL', async () => {
    const { client } = await signedIn('staff');
    const { id, base } = await newDealApplication(client);
    const { reply, view } = await readApplication(client, base);
    expect(view).toMatchObject({ id, kind: 'deal', answers_revision: 0, submitted_at: null, status: { key: 'not_started', label: 'Not started' } });
    expect(reply.headers.get('etag')).toBe(view.etag);

    const contract = await client.get<{ contract: unknown }>(`${base}/contract`);
    expect(contract.status).toBe(200);
    const c = ContractView.parse(contract.body.contract);
    expect(c.repeatable_groups.map((g) => g.block_key)).toContain('directors');

    const answers = await client.get(`${base}/answers?page_size=5`);
    expect(answers.status).toBe(200);
    const page = AnswersPageView.parse(answers.body);
    expect(page.items).toHaveLength(5);
    expect(page.next_cursor).not.toBeNull();
    const next = AnswersPageView.parse((await client.get(`${base}/answers?page_size=5&cursor=${encodeURIComponent(page.next_cursor!)}`)).body);
    expect(next.items[0]!.schema_key).not.toBe(page.items[0]!.schema_key);

    for (const r of [reply, contract, answers]) expectNoPortalUrl(r);

    const sample = await readApplication(client, '/api/deal-applications/dapp_sunriseoven');
    expect(sample.view.answers_revision).toBeGreaterThan(0);
    expect((await client.get('/api/deal-applications/dapp_nosuchapp')).status).toBe(404);
  });

  it('writes answers with If-Match; a stale write gets 412 with the current answers; 422 details pass through', async () => {
    const { client } = await signedIn('staff');
    const { id, base } = await newDealApplication(client);
    const first = await readAnswers(client, base);
    const name = first.items.find((i) => i.schema_key === 'borrower_legal_name')!;
    const key = { block_key: name.block_key, schema_key: name.schema_key, field_key: name.field_key };

    const ok = await client.patch(`${base}/answers`, {
      ifMatch: first.etag,
      body: { answers_revision: first.answers_revision, answers: [{ ...key, value: 'Summit Works Ltd' }] },
    });
    expect(ok.status, ok.text).toBe(200);
    const written = AnswersWriteResult.parse(ok.body);
    expect(written.answers_revision).toBe(first.answers_revision + 1);
    expect(ok.headers.get('etag')).toBe(written.etag);
    expectNoPortalUrl(ok);

    const stale = await client.patch<{ current: unknown }>(`${base}/answers`, {
      ifMatch: first.etag,
      body: { answers_revision: first.answers_revision, answers: [{ ...key, value: 'Someone Else Ltd' }] },
    });
    expect(stale.status).toBe(412);
    expect(BffErrorBody.parse(stale.body).error.code).toBe('precondition_failed');
    const current = CurrentAnswers.parse(stale.body.current);
    expect(current).toMatchObject({ answers_revision: written.answers_revision, etag: written.etag });
    expect(current.items.find((i) => i.schema_key === key.schema_key)?.value).toBe('Summit Works Ltd');
    expectNoPortalUrl(stale);

    const missing = await client.patch(`${base}/answers`, { body: { answers_revision: current.answers_revision, answers: [{ ...key, value: 'x' }] } });
    expect(missing.status).toBe(428);

    const email = first.items.find((i) => i.value_type === 'email')!;
    const bad = await client.patch(`${base}/answers`, {
      ifMatch: current.etag,
      body: { answers_revision: current.answers_revision, answers: [{ block_key: email.block_key, schema_key: email.schema_key, field_key: email.field_key, value: 'not an email' }] },
    });
    expect(bad.status).toBe(422);
    const err = BffErrorBody.parse(bad.body).error;
    expect(err.request_id).toMatch(/^req_/);
    expect(err.details).toEqual([expect.objectContaining({ code: 'format', schema_key: email.schema_key, field_key: email.field_key })]);

    const audit = await auditRows('deal_application.answers_update', id);
    expect(audit.map((a) => a.status)).toEqual([200, 412, 428, 422]);
    expect(audit.every((a) => a.object_type === 'deal_application' && a.application_id === id)).toBe(true);
  });

  it('manages repeatable items, then submits once every required answer is given', async () => {
    const { client } = await signedIn('staff');
    const { id, base } = await newDealApplication(client);
    const contract = ContractView.parse((await client.get<{ contract: unknown }>(`${base}/contract`)).body.contract);
    const before = await readApplication(client, base);

    // Submitting too early: the Portal's 422 names every missing answer.
    const early = await client.post(`${base}/submit`, { ifMatch: before.view.etag, idempotencyKey: newIdempotencyKey('submit') });
    expect(early.status).toBe(422);
    const missing = BffErrorBody.parse(early.body).error;
    expect(missing.code).toBe('validation_failed');
    expect(missing.details.length).toBeGreaterThan(3);
    expect(missing.details).toContainEqual(expect.objectContaining({ block_key: 'directors' }));

    // Every top-level answer from the contract's examples.
    const page = await readAnswers(client, base);
    const top = contract.questions.filter((q) => !q.is_repeatable && q.answer_shape !== 'file');
    const writes = top.flatMap((q) => q.fields.map((f) => ({ block_key: q.block_key, schema_key: q.schema_key, field_key: f.field_key, value: f.example })));
    const saved = await client.patch(`${base}/answers`, { ifMatch: page.etag, body: { answers_revision: page.answers_revision, answers: writes } });
    expect(saved.status, saved.text).toBe(200);
    let etag = AnswersWriteResult.parse(saved.body).etag;

    // Directors: two items created, one filled in, the other removed.
    const directorQuestions = contract.questions.filter((q) => q.is_repeatable && q.block_key === 'directors');
    const itemAnswers = directorQuestions.flatMap((q) => q.fields.map((f) => ({ schema_key: q.schema_key, field_key: f.field_key, value: f.example })));
    const created = await client.post(`${base}/items/directors`, { body: {} });
    expect(created.status, created.text).toBe(201);
    const first = ItemWriteResult.parse(created.body);
    expectNoPortalUrl(created);
    const second = ItemWriteResult.parse((await client.post(`${base}/items/directors`, { body: {}, ifMatch: first.etag })).body);
    etag = second.etag;

    const updated = await client.patch(`${base}/items/directors/${first.item.item_id}`, {
      ifMatch: etag,
      body: { answers_revision: second.answers_revision, answers: itemAnswers },
    });
    expect(updated.status, updated.text).toBe(200);
    const afterUpdate = ItemWriteResult.parse(updated.body);
    expect(afterUpdate.item.answers.find((a) => a.schema_key === 'director_full_name')?.value).toBe('Alex Morgan');

    const staleItem = await client.patch<{ current: unknown }>(`${base}/items/directors/${first.item.item_id}`, {
      ifMatch: etag,
      body: { answers_revision: second.answers_revision, answers: itemAnswers },
    });
    expect(staleItem.status).toBe(412);
    const currentItems = CurrentItems.parse(staleItem.body.current);
    expect(currentItems).toMatchObject({ block_key: 'directors', answers_revision: afterUpdate.answers_revision, etag: afterUpdate.etag });
    expect(currentItems.items.map((i) => i.item_id)).toEqual([first.item.item_id, second.item.item_id]);
    expectNoPortalUrl(staleItem);
    expect((await client.delete(`${base}/items/directors/${second.item.item_id}`)).status).toBe(428);

    const removed = await client.delete(`${base}/items/directors/${second.item.item_id}`, { ifMatch: afterUpdate.etag });
    expect(removed.status, removed.text).toBe(200);
    expect(ItemDeleteResult.parse(removed.body).deleted_item_ids).toEqual([second.item.item_id]);

    const list = await client.get(`${base}/items/directors`);
    expect(list.status).toBe(200);
    const items = ItemsPageView.parse(list.body);
    expect(items.items.map((i) => i.item_id)).toEqual([first.item.item_id]);
    expectNoPortalUrl(list);

    // Submit: If-Match and an Idempotency-Key are both required; a stale ETag gets the application as it is now.
    const now = await readApplication(client, base);
    expect((await client.post(`${base}/submit`, { idempotencyKey: newIdempotencyKey() })).status).toBe(428);
    expect((await client.post(`${base}/submit`, { ifMatch: now.view.etag })).status).toBe(428);
    const stale = await client.post<{ current: unknown }>(`${base}/submit`, { ifMatch: before.view.etag, idempotencyKey: newIdempotencyKey('submit') });
    expect(stale.status).toBe(412);
    expect(ApplicationView.parse(stale.body.current)).toEqual(now.view);

    const submitted = await client.post<{ application: unknown }>(`${base}/submit`, { ifMatch: now.view.etag, idempotencyKey: newIdempotencyKey('submit') });
    expect(submitted.status, submitted.text).toBe(200);
    const view = ApplicationView.parse(submitted.body.application);
    expect(view).toMatchObject({ id, kind: 'deal', status: { key: 'submitted' }, submitted_at: expect.any(String) });
    expect(submitted.headers.get('etag')).toBe(view.etag);
    expectNoPortalUrl(submitted);

    const audit = await auditRows('deal_application.submit', id);
    expect(audit.map((a) => a.status)).toEqual([422, 428, 428, 412, 200]);
    expect(audit.at(-1)).toMatchObject({ outcome: 'success', object_type: 'deal_application', application_id: id });
    expect((await auditRowsOfApplication('deal_application.item_create', id)).map((a) => [a.object_type, a.object_id, a.status])).toEqual([
      ['repeatable_group', 'directors', 201],
      ['repeatable_group', 'directors', 201],
    ]);
    expect((await auditRows('deal_application.item_update', first.item.item_id)).map((a) => [a.application_id, a.status])).toEqual([
      [id, 200],
      [id, 412],
    ]);
    expect((await auditRows('deal_application.item_delete', second.item.item_id)).map((a) => a.status)).toEqual([428, 200]);
  });

  it('is for staff only', async () => {
    const base = '/api/deal-applications/dapp_sunriseoven';
    await expectStaffOnly([
      { method: 'GET', path: base },
      { method: 'GET', path: `${base}/contract` },
      { method: 'GET', path: `${base}/answers` },
      { method: 'PATCH', path: `${base}/answers`, body: { answers_revision: 0, answers: [] } },
      { method: 'POST', path: `${base}/submit` },
      { method: 'GET', path: `${base}/items/directors` },
      { method: 'POST', path: `${base}/items/directors`, body: {} },
      { method: 'PATCH', path: `${base}/items/directors/ritem_x`, body: { answers_revision: 0, answers: [] } },
      { method: 'DELETE', path: `${base}/items/directors/ritem_x` },
    ]);
  });
});
