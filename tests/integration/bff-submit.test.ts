import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AnswersPageView, ApplicationView } from '@/lib/bff/applications';
import { BffErrorBody } from '@/lib/bff/errors';
import { ItemsPageView } from '@/lib/bff/items';
import { listAudit } from '@/server/audit';
import type { RunningSandbox } from '@/server/sandbox/server';
import { fillFromExamples, freshApplication } from './support/applications';
import { BffClient, bffDb, bffStack, clientSessionFor, signedIn } from './support/bff';
import { KEYS, SandboxClient } from './support/sandbox';

/** The stack's sandbox, called directly with the demo key: each test makes its own business. */
const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);
const newApp = () => freshApplication(portal(), 'BFF Submit Test Ltd');

const appUrl = (appId: string) => `/api/applications/${appId}`;
const submitUrl = (appId: string) => `${appUrl(appId)}/submit`;
const errorOf = (r: { body: unknown }) => BffErrorBody.parse(r.body).error;

async function readApp(client: BffClient, appId: string) {
  const r = await client.get<{ application: unknown }>(appUrl(appId));
  if (r.status !== 200) throw new Error(`read → ${r.status}: ${r.text}`);
  return ApplicationView.parse(r.body.application);
}

describe('submitting through the BFF', () => {
  it('lists what is missing, then submits once, replays a retry, and refuses writes afterwards', async () => {
    const appId = await newApp();
    const { client } = await signedIn('staff');
    const before = await readApp(client, appId);

    const missing = await client.post(submitUrl(appId), { ifMatch: before.etag, idempotencyKey: randomUUID() });
    expect(missing.status).toBe(422);
    const error = errorOf(missing);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/^\d+ required answers are missing\.$/);
    expect(error.request_id).toMatch(/^req_/);
    expect(error.details.length).toBeGreaterThan(10);
    expect(error.details).toContainEqual(expect.objectContaining({ code: 'required', block_key: expect.any(String), schema_key: expect.any(String), field_key: expect.any(String) }));
    expect(error.details).toContainEqual(expect.objectContaining({ code: 'min_items', block_key: 'owners' }));

    await fillFromExamples(portal(), appId);
    const filled = await readApp(client, appId);
    expect(filled.submitted_at).toBeNull();

    const key = randomUUID();
    const submitted = await client.post<{ application: unknown }>(submitUrl(appId), { ifMatch: filled.etag, idempotencyKey: key });
    expect(submitted.status).toBe(200);
    expect(submitted.headers.get('cache-control')).toBe('private, no-store');
    const view = ApplicationView.parse(submitted.body.application);
    expect(view).toMatchObject({ id: appId, kind: 'client_intake' });
    expect(view.submitted_at).not.toBeNull();
    expect(submitted.headers.get('etag')).toBe(view.etag);
    expect(view.etag).not.toBe(filled.etag);
    expect(submitted.text.includes(new URL(bffStack().sandboxBaseUrl).host)).toBe(false);

    // A retry of the same click (same key, same If-Match) gets the first reply, not a second submission.
    const replay = await client.post(submitUrl(appId), { ifMatch: filled.etag, idempotencyKey: key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(submitted.body);

    // A new submission, and every write, is refused now.
    const again = await client.post(submitUrl(appId), { ifMatch: view.etag, idempotencyKey: randomUUID() });
    expect(again.status).toBe(409);
    expect(errorOf(again).details).toEqual([expect.objectContaining({ code: 'application_submitted' })]);
    const answers = AnswersPageView.parse((await client.get(`${appUrl(appId)}/answers?page_size=500`)).body);
    const text = answers.items.find((a) => a.value_type === 'string' && a.allowed_values.length === 0)!;
    const write = await client.patch(`${appUrl(appId)}/answers`, {
      ifMatch: answers.etag,
      body: { answers_revision: answers.answers_revision, answers: [{ block_key: text.block_key, schema_key: text.schema_key, field_key: text.field_key, value: 'late' }] },
    });
    expect(write.status).toBe(409);
    const owners = ItemsPageView.parse((await client.get(`${appUrl(appId)}/items/owners`)).body);
    expect((await client.post(`${appUrl(appId)}/items/owners`, { body: {} })).status).toBe(409);
    const owner = owners.items[0]!;
    expect(
      (await client.patch(`${appUrl(appId)}/items/owners/${owner.item_id}`, {
        ifMatch: owners.etag,
        body: { answers_revision: owners.answers_revision, answers: [{ schema_key: 'owner_full_name', field_key: 'value', value: 'Late Name' }] },
      })).status,
    ).toBe(409);
    expect((await client.delete(`${appUrl(appId)}/items/owners/${owner.item_id}`, { ifMatch: owners.etag })).status).toBe(409);
    const upload = await fetch(`${client.base}${appUrl(appId)}/files?block_key=bank_statements&schema_key=bank_statements&field_key=files`, {
      method: 'POST',
      headers: { Cookie: client.cookieHeader(), 'X-CSRF': '1', Origin: client.base, 'Content-Type': 'application/pdf', 'X-Filename': 'late.pdf' },
      body: '%PDF-1.4 late',
    });
    expect(upload.status).toBe(409);

    const audit = (await listAudit(await bffDb(), appId)).items;
    const submits = audit.filter((a) => a.operation === 'application.submit');
    expect(submits.map((a) => [a.outcome, a.status])).toEqual([
      ['failure', 409],
      ['success', 200],
      ['success', 200],
      ['failure', 422],
    ]);
    for (const a of submits) expect(a).toMatchObject({ objectType: 'application', objectId: appId, applicationId: appId, upstreamRequestId: expect.stringMatching(/^req_/) });
    expect(audit.filter((a) => a.operation.startsWith('items.') || a.operation.startsWith('files.')).map((a) => a.status)).toEqual([409, 409, 409, 409]);
  });

  it('requires If-Match and an Idempotency-Key, and a current ETag', async () => {
    const appId = await newApp();
    const { client } = await signedIn('staff');
    const app = await readApp(client, appId);
    const noIfMatch = await client.post(submitUrl(appId), { idempotencyKey: randomUUID() });
    expect(noIfMatch.status).toBe(428);
    expect(errorOf(noIfMatch).details).toEqual([expect.objectContaining({ parameter: 'If-Match' })]);
    const noKey = await client.post(submitUrl(appId), { ifMatch: app.etag });
    expect(noKey.status).toBe(428);
    expect(errorOf(noKey).details).toEqual([expect.objectContaining({ parameter: 'Idempotency-Key' })]);
    const stale = await client.post(submitUrl(appId), { ifMatch: '"app-stale-0-0"', idempotencyKey: randomUUID() });
    expect(stale.status).toBe(412);
    expect(errorOf(stale).code).toBe('precondition_failed');
  });
});

describe('who may submit', () => {
  it('lets the invited client submit its application, and not another', async () => {
    const appId = await newApp();
    const otherId = await newApp();
    await fillFromExamples(portal(), appId);
    // Invited to send for review (the default), the client does not submit: staff do, from the review.
    const reviewing = await clientSessionFor(appId);
    const held = await reviewing.post(submitUrl(appId), { ifMatch: (await readApp(reviewing, appId)).etag, idempotencyKey: randomUUID() });
    expect(held.status).toBe(409);
    expect(errorOf(held).details).toEqual([expect.objectContaining({ code: 'review_required' })]);
    const client = await clientSessionFor(appId, { clientSubmits: true });
    const app = await readApp(client, appId);
    const r = await client.post<{ application: unknown }>(submitUrl(appId), { ifMatch: app.etag, idempotencyKey: randomUUID() });
    expect(r.status).toBe(200);
    expect(ApplicationView.parse(r.body.application).submitted_at).not.toBeNull();
    expect((await listAudit(await bffDb(), appId)).items[0]).toMatchObject({ operation: 'application.submit', actorKind: 'invitation', outcome: 'success' });

    const { client: staff } = await signedIn('staff');
    const other = await readApp(staff, otherId);
    const refused = await client.post(submitUrl(otherId), { ifMatch: other.etag, idempotencyKey: randomUUID() });
    expect(refused.status).toBe(404);
    expect(errorOf(refused).code).toBe('not_found');
    expect((await readApp(staff, otherId)).etag).toBe(other.etag);
  });

  it('refuses reviewers, anonymous callers and submissions without X-CSRF', async () => {
    const appId = await newApp();
    await fillFromExamples(portal(), appId);
    const { client: reviewer } = await signedIn('reviewer');
    const app = await readApp(reviewer, appId);
    const denied = await reviewer.post(submitUrl(appId), { ifMatch: app.etag, idempotencyKey: randomUUID() });
    expect(denied.status).toBe(403);
    expect(errorOf(denied).code).toBe('forbidden');
    expect((await new BffClient().post(submitUrl(appId), { ifMatch: app.etag, idempotencyKey: randomUUID() })).status).toBe(401);
    const { client: staff } = await signedIn('staff');
    const noCsrf = await staff.post(submitUrl(appId), { ifMatch: app.etag, idempotencyKey: randomUUID(), noCsrf: true });
    expect(noCsrf.status).toBe(403);
    expect(errorOf(noCsrf).code).toBe('csrf_failed');
    expect((await readApp(staff, appId)).submitted_at).toBeNull();
  });
});
