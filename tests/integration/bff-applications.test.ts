import { describe, expect, it } from 'vitest';
import { AnswersPageView, AnswersWriteResult, ApplicationView, ContractView, CurrentAnswers } from '@/lib/bff/applications';
import { BffErrorBody } from '@/lib/bff/errors';
import { bffStack, signedIn } from './support/bff';

const APP = 'ciappl_harbourcafe';
const base = `/api/applications/${APP}`;

describe('application routes', () => {
  it('reads the application, its contract and its answers without any Portal URL', async () => {
    const { client } = await signedIn('staff');
    const app = await client.get<{ application: unknown }>(base);
    expect(app.status).toBe(200);
    expect(app.headers.get('cache-control')).toBe('private, no-store');
    const view = ApplicationView.parse(app.body.application);
    expect(view).toMatchObject({ id: APP, kind: 'client_intake', business: { id: 'biz_harbourcafe' } });
    expect(app.headers.get('etag')).toBe(view.etag);

    const contract = await client.get<{ contract: unknown }>(`${base}/contract`);
    expect(contract.status).toBe(200);
    const c = ContractView.parse(contract.body.contract);
    expect(c.questions.length).toBeGreaterThan(40);

    const answers = await client.get(`${base}/answers?page_size=10`);
    expect(answers.status).toBe(200);
    const page = AnswersPageView.parse(answers.body);
    expect(page.items).toHaveLength(10);
    expect(page.next_cursor).not.toBeNull();

    const portal = new URL(bffStack().sandboxBaseUrl).host;
    for (const r of [app, contract, answers]) expect(r.text.includes(portal)).toBe(false);
  });

  it('writes answers with If-Match, and answers a stale write with 412 and the current answers', async () => {
    const { client } = await signedIn('staff');
    const first = AnswersPageView.parse((await client.get(`${base}/answers?page_size=500`)).body);
    const text = first.items.find((i) => i.value_type === 'string' && i.allowed_values.length === 0 && i.field_label.length > 0)!;
    const key = { block_key: text.block_key, schema_key: text.schema_key, field_key: text.field_key };

    const ok = await client.patch(`${base}/answers`, {
      ifMatch: first.etag,
      body: { answers_revision: first.answers_revision, answers: [{ ...key, value: 'Harbour Street Café Ltd' }] },
    });
    expect(ok.status).toBe(200);
    const written = AnswersWriteResult.parse(ok.body);
    expect(written.answers_revision).toBe(first.answers_revision + 1);
    expect(written.etag).not.toBe(first.etag);

    const stale = await client.patch<{ current: unknown }>(`${base}/answers`, {
      ifMatch: first.etag,
      body: { answers_revision: first.answers_revision, answers: [{ ...key, value: 'Something else' }] },
    });
    expect(stale.status).toBe(412);
    expect(BffErrorBody.parse(stale.body).error.code).toBe('precondition_failed');
    const current = CurrentAnswers.parse(stale.body.current);
    expect(current.answers_revision).toBe(written.answers_revision);
    expect(current.items.find((i) => i.schema_key === key.schema_key && i.field_key === key.field_key)?.value).toBe('Harbour Street Café Ltd');

    const missing = await client.patch(`${base}/answers`, { body: { answers_revision: current.answers_revision, answers: [{ ...key, value: 'x' }] } });
    expect(missing.status).toBe(428);
  });

  it('passes the Portal’s field-level 422 details through', async () => {
    const { client } = await signedIn('staff');
    const first = AnswersPageView.parse((await client.get(`${base}/answers?page_size=500`)).body);
    const email = first.items.find((i) => i.value_type === 'email')!;
    const r = await client.patch(`${base}/answers`, {
      ifMatch: first.etag,
      body: { answers_revision: first.answers_revision, answers: [{ block_key: email.block_key, schema_key: email.schema_key, field_key: email.field_key, value: 'not an email' }] },
    });
    expect(r.status).toBe(422);
    const err = BffErrorBody.parse(r.body).error;
    expect(err.code).toBe('validation_failed');
    expect(err.request_id).toMatch(/^req_/);
    expect(err.details).toEqual([expect.objectContaining({ code: 'format', block_key: email.block_key, schema_key: email.schema_key, field_key: email.field_key })]);
  });

  it('refuses writes without X-CSRF or from another origin, and anonymous reads', async () => {
    const { client } = await signedIn('staff');
    const page = AnswersPageView.parse((await client.get(`${base}/answers?page_size=1`)).body);
    const body = { answers_revision: page.answers_revision, answers: [] };
    expect((await client.patch(`${base}/answers`, { ifMatch: page.etag, body, noCsrf: true })).status).toBe(403);
    expect((await client.patch(`${base}/answers`, { ifMatch: page.etag, body, headers: { Origin: 'https://evil.example' } })).status).toBe(403);
    expect((await client.patch(`${base}/answers`, { ifMatch: page.etag, body, headers: { 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(403);
    const anonymous = await fetch(`${client.base}${base}`);
    expect(anonymous.status).toBe(401);
  });
});
