import { describe, expect, it } from 'vitest';
import {
  BusinessListView,
  BusinessStageTransitionView,
  BusinessView,
  PeopleView,
  PipelineListView,
  PortalView,
  StagesView,
  UploadResultView,
} from '@/lib/bff/businesses';
import { BusinessCreatedView } from '@/lib/bff/businesses';
import { BffErrorBody } from '@/lib/bff/errors';
import { AnswerFilePage } from '@/lib/portal';
import { bffDb, bffStack, signedIn } from './support/bff';
import {
  auditRows,
  createBusiness,
  expectNoPortalUrl,
  expectStaffOnly,
  newIdempotencyKey,
  portalHost,
} from './support/bff-businesses';
import { KEYS } from './support/sandbox';

const CONTACT = { full_name: 'Jo Bloggs', email: 'jo.bloggs@example.test', phone_number: '+44 20 7946 0000' };

/** The sandbox API itself, with the demo key: what the Portal really holds after a BFF call. */
async function sandboxGet(path: string) {
  const res = await fetch(`${bffStack().sandboxBaseUrl}${path}`, { headers: { Authorization: `Bearer ${KEYS.full}` } });
  expect(res.status).toBe(200);
  return res.json() as Promise<unknown>;
}

describe('portal and business routes', () => {
  it('summarises the Portal and the key without the key or a Portal URL', async () => {
    const { client } = await signedIn('staff');
    const r = await client.get('/api/portal');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    const view = PortalView.parse(r.body);
    expect(view.environment).toBe('test');
    expect(view.key.kind).toBe('portal');
    expect(view.key.permissions).toContain('businesses:write');
    expect(Object.keys(view.key).sort()).toEqual(['channel_slugs', 'kind', 'permissions']);
    expectNoPortalUrl(r);
  });

  it('pages through businesses with the Portal’s cursors', async () => {
    const { client } = await signedIn('staff');
    const first = await client.get('/api/businesses?page_size=2');
    expect(first.status).toBe(200);
    const page = BusinessListView.parse(first.body);
    expect(page.items).toHaveLength(2);
    expect(page.next_cursor).not.toBeNull();
    expectNoPortalUrl(first);
    const second = BusinessListView.parse((await client.get(`/api/businesses?page_size=2&cursor=${encodeURIComponent(page.next_cursor!)}`)).body);
    expect(second.items[0]!.id).not.toBe(page.items[0]!.id);
    expect(second.previous_cursor).not.toBeNull();

    const unsupported = await client.get('/api/businesses?sort=name');
    expect(unsupported.status).toBe(400);
    expect(BffErrorBody.parse(unsupported.body).error.details[0]).toMatchObject({ code: 'unsupported_parameter', parameter: 'sort' });
  });

  it('creates a business: upload slots instead of upload URLs, no Portal URL at all, the write audited', async () => {
    const { client, email } = await signedIn('staff');
    const { reply, created } = await createBusiness(client, { contact: CONTACT });
    expect(created.business.id).toMatch(/^biz_/);
    expect(created.application.id).toMatch(/^ciappl_/);
    expect(created.uploads.length).toBeGreaterThan(1);
    for (const u of created.uploads) expect(Object.keys(u).sort()).toEqual(['id', 'multiple', 'request_path']);
    // Not even the Portal's own invitation page (DESIGN.md §1): clients are invited through the app's links.
    expect(reply.body).not.toHaveProperty('invitation_url');
    expect(reply.text).not.toContain(portalHost());
    expect(reply.text).not.toMatch(/upload_url|token=|\/transfers\//);

    const audit = await auditRows('business.create', created.business.id);
    expect(audit).toEqual([
      expect.objectContaining({
        object_type: 'business',
        application_id: created.application.id,
        outcome: 'success',
        status: 201,
        actor_label: email,
        upstream_request_id: reply.headers.get('x-upstream-request-id'),
      }),
    ]);
    expect(audit[0]!.upstream_request_id).toMatch(/^req_/);
  });

  it('prefills the new application from what the create form collected, and a retried create writes nothing twice', async () => {
    const { client } = await signedIn('staff');
    const name = `Prefilled ${Date.now()} Ltd`;
    const body = { name, contact: { ...CONTACT, job_title: 'Finance director' } };
    const key = newIdempotencyKey('prefill');
    const first = await client.post('/api/businesses', { body, idempotencyKey: key });
    expect(first.status, first.text).toBe(201);
    const created = BusinessCreatedView.parse(first.body);
    expect(created.prefilled.problem).toBeNull();
    expect(created.prefilled.questions).toEqual(expect.arrayContaining(['Legal business name', 'Contact name', 'Email address', 'Role in the business']));

    const read = async () => {
      const r = await client.get(`/api/applications/${created.application.id}/answers?page_size=500`);
      expect(r.status).toBe(200);
      const page = r.body as { answers_revision: number; items: Array<{ schema_key: string; value: unknown }> };
      return { revision: page.answers_revision, value: (key: string) => page.items.find((a) => a.schema_key === key)?.value };
    };
    const after = await read();
    expect(after.value('legal_name')).toBe(name);
    expect(after.value('contact_name')).toBe(CONTACT.full_name);
    expect(after.value('contact_email')).toBe(CONTACT.email);
    expect(after.value('contact_role')).toBe('Finance director');

    // The same create again (a retry): the Portal replays it, and the answers, already there, are not written again.
    const again = await client.post('/api/businesses', { body, idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await read()).revision).toBe(after.revision);
  });

  it('replays a create retried with the same Idempotency-Key, and requires one', async () => {
    const { client } = await signedIn('staff');
    const body = { name: 'Retried Create Ltd' };
    const key = newIdempotencyKey('create');
    const a = await client.post('/api/businesses', { body, idempotencyKey: key });
    const b = await client.post('/api/businesses', { body, idempotencyKey: key });
    expect(a.status).toBe(201);
    expect(b.body).toEqual(a.body);

    const missing = await client.post('/api/businesses', { body });
    expect(missing.status).toBe(428);
    expect(BffErrorBody.parse(missing.body).error.details[0]).toMatchObject({ parameter: 'Idempotency-Key' });
  });

  it('validates the body itself and passes the Portal’s 422 details through', async () => {
    const { client } = await signedIn('staff');
    const local = await client.post('/api/businesses', { body: { name: '' }, idempotencyKey: newIdempotencyKey() });
    expect(local.status).toBe(422);
    expect(BffErrorBody.parse(local.body).error.details[0]).toMatchObject({ parameter: 'name' });
    // Text hygiene, by the schema the sandbox shares: a bidi override in a name is refused with the reason.
    const disguised = await client.post('/api/businesses', { body: { name: 'Acme \u202Edtl' }, idempotencyKey: newIdempotencyKey() });
    expect(disguised.status).toBe(422);
    expect(BffErrorBody.parse(disguised.body).error.details[0]).toMatchObject({
      parameter: 'name',
      message: expect.stringContaining('text-direction control (U+202E)'),
    });

    const upstream = await client.post('/api/businesses', {
      body: { name: 'Unknown Source Ltd', source_channel_id: 'no-such-channel' },
      idempotencyKey: newIdempotencyKey(),
    });
    expect(upstream.status).toBe(422);
    const err = BffErrorBody.parse(upstream.body).error;
    expect(err).toMatchObject({ code: 'validation_failed' });
    expect(err.request_id).toMatch(/^req_/);
    expect(err.details).toEqual([expect.objectContaining({ code: 'invalid_channel', parameter: 'source_channel_id' })]);
    const failed = await (await bffDb()).query<{ outcome: string; status: number }>(
      `SELECT outcome, status FROM audit_log WHERE operation = 'business.create' AND upstream_request_id = $1`,
      [err.request_id],
    );
    expect(failed).toEqual([{ outcome: 'failure', status: 422 }]);
  });

  it('streams a document of over 1 MB into a create slot, and it reaches the Portal', async () => {
    const { client } = await signedIn('staff');
    const { created } = await createBusiness(client);
    const slot = created.uploads.find((u) => u.multiple)!;
    const bytes = Buffer.alloc(1_500_000, 0x41);
    bytes.write('%PDF-1.4\n');
    const path = `/api/businesses/${created.business.id}/uploads/${slot.id}?filename=${encodeURIComponent('Bank statement – March.pdf')}`;
    const r = await client.post<{ upload: unknown }>(path, { body: new Uint8Array(bytes), headers: { 'Content-Type': 'application/pdf' } });
    expect(r.status, r.text).toBe(201);
    const upload = UploadResultView.parse(r.body.upload);
    expect(upload).toMatchObject({ request_path: slot.request_path, filename: 'Bank statement – March.pdf', size: bytes.length, application_file_count: 1 });
    expectNoPortalUrl(r);
    expect(r.text).not.toMatch(/upload_url|token=|\/transfers\//);

    const files = AnswerFilePage.parse(await sandboxGet(`client-intake-applications/${created.application.id}/files/`));
    expect(files.items).toEqual([expect.objectContaining({ filename: 'Bank statement – March.pdf', size: bytes.length, content_type: 'application/pdf' })]);
    const [block, schema, field] = slot.request_path.split('/');
    expect(files.items[0]).toMatchObject({ block_key: block, schema_key: schema, field_key: field });

    expect(await auditRows('business.document_upload', created.business.id)).toEqual([
      expect.objectContaining({ object_type: 'business', application_id: created.application.id, outcome: 'success', status: 201 }),
    ]);
  });

  it('refuses uploads to an unknown slot, another business’s slot, or without a file type', async () => {
    const { client } = await signedIn('staff');
    const a = (await createBusiness(client)).created;
    const b = (await createBusiness(client)).created;
    const file = { body: new TextEncoder().encode('%PDF-1.4 tiny'), headers: { 'Content-Type': 'application/pdf' } };
    const slot = a.uploads[0]!.id;
    expect((await client.post(`/api/businesses/${a.business.id}/uploads/upl_nosuchslot?filename=a.pdf`, file)).status).toBe(404);
    expect((await client.post(`/api/businesses/${b.business.id}/uploads/${slot}?filename=a.pdf`, file)).status).toBe(404);
    expect((await client.post(`/api/businesses/${a.business.id}/uploads/${slot}`, file)).status).toBe(400);
    // A type the file questions do not take (none at all, a program) is refused before a byte goes to the Portal,
    // as the file questions refuse it: the same checks for every upload route.
    const untyped = await client.post(`/api/businesses/${a.business.id}/uploads/${slot}?filename=a.pdf`, { body: file.body, headers: { 'Content-Type': '' } });
    expect(untyped.status).toBe(422);
    expect(BffErrorBody.parse(untyped.body).error.details[0]).toMatchObject({ code: 'unsupported_type', parameter: 'Content-Type' });
    const refused = await client.post(`/api/businesses/${a.business.id}/uploads/${slot}?filename=a.exe`, {
      body: file.body,
      headers: { 'Content-Type': 'application/x-msdownload' },
    });
    expect(refused.status).toBe(422);
    expect(BffErrorBody.parse(refused.body).error).toMatchObject({ request_id: null, details: [expect.objectContaining({ code: 'unsupported_type' })] });
    expectNoPortalUrl(refused);
  });

  it('reads a business, its stages and people, and moves it with If-Match; a stale move gets 412 with the business now', async () => {
    const { client } = await signedIn('staff');
    const { created } = await createBusiness(client, { contact: CONTACT });
    const base = `/api/businesses/${created.business.id}`;

    const read = await client.get<{ business: unknown }>(base);
    expect(read.status).toBe(200);
    const business = BusinessView.parse(read.body.business);
    expect(business).toMatchObject({ id: created.business.id, is_sample: false, application: { id: created.application.id } });
    expect(read.headers.get('etag')).toBe(business.etag);
    expectNoPortalUrl(read);

    const stagesReply = await client.get(`${base}/stages`);
    expect(stagesReply.status).toBe(200);
    const stages = StagesView.parse(stagesReply.body);
    expect(stages.pipeline).toEqual(business.workflow.pipeline);
    expect(stages.current_stage_id).toBe(business.workflow.stage.id);
    expect(stages.items.map((s) => s.order)).toEqual([...stages.items.keys()]);
    expectNoPortalUrl(stagesReply);
    const target = stages.items.find((s) => s.id !== business.workflow.stage.id)!;

    const people = await client.get(`${base}/people`);
    expect(people.status).toBe(200);
    expect(PeopleView.parse(people.body).items).toEqual([expect.objectContaining({ full_name: CONTACT.full_name, email: CONTACT.email, is_primary: true })]);
    expectNoPortalUrl(people);

    const moved = await client.post<{ transition: unknown }>(`${base}/stage-transitions`, {
      body: { stage_id: target.id },
      ifMatch: business.etag,
      idempotencyKey: newIdempotencyKey('move'),
    });
    expect(moved.status, moved.text).toBe(200);
    const transition = BusinessStageTransitionView.parse(moved.body.transition);
    expect(transition).toMatchObject({ id: business.id, stage: { id: target.id, name: target.name }, revision: business.revision + 1 });
    expect(moved.headers.get('etag')).toBe(transition.etag);
    expectNoPortalUrl(moved);

    const back = stages.items.find((s) => s.id !== target.id)!;
    const stale = await client.post<{ current: unknown }>(`${base}/stage-transitions`, {
      body: { stage_id: back.id },
      ifMatch: business.etag,
      idempotencyKey: newIdempotencyKey('move'),
    });
    expect(stale.status).toBe(412);
    expect(BffErrorBody.parse(stale.body).error.code).toBe('precondition_failed');
    const current = BusinessView.parse(stale.body.current);
    expect(current).toMatchObject({ revision: transition.revision, workflow: { stage: { id: target.id } }, etag: transition.etag });
    expect(stale.headers.get('etag')).toBe(transition.etag);
    expectNoPortalUrl(stale);

    const noIfMatch = await client.post(`${base}/stage-transitions`, { body: { stage_id: back.id }, idempotencyKey: newIdempotencyKey() });
    expect(noIfMatch.status).toBe(428);
    expect(BffErrorBody.parse(noIfMatch.body).error.details[0]).toMatchObject({ parameter: 'If-Match' });
    const noKey = await client.post(`${base}/stage-transitions`, { body: { stage_id: back.id }, ifMatch: transition.etag });
    expect(noKey.status).toBe(428);
    expect(BffErrorBody.parse(noKey.body).error.details[0]).toMatchObject({ parameter: 'Idempotency-Key' });

    const invalid = await client.post(`${base}/stage-transitions`, {
      body: { stage_id: 'bstg_nosuchstage' },
      ifMatch: transition.etag,
      idempotencyKey: newIdempotencyKey(),
    });
    expect(invalid.status).toBe(422);
    expect(BffErrorBody.parse(invalid.body).error.details[0]).toMatchObject({ code: 'invalid_stage', parameter: 'stage_id' });

    const audit = await auditRows('business.stage_transition', business.id);
    expect(audit.map((a) => a.status)).toEqual([200, 412, 428, 428, 422]);
    // route() counts a reply the handler built itself (the 412 with `current`) as a success; the status tells.
    expect(audit.filter((a) => a.status !== 412).map((a) => a.outcome)).toEqual(['success', 'failure', 'failure', 'failure']);
  });

  it('reads a seeded business and the business pipelines; refuses unknown and malformed ids', async () => {
    const { client } = await signedIn('staff');
    const meridian = await client.get<{ business: unknown }>('/api/businesses/biz_meridian');
    expect(BusinessView.parse(meridian.body.business).application).toEqual({ id: 'ciappl_meridian' });

    const pipelines = await client.get('/api/business-pipelines');
    expect(pipelines.status).toBe(200);
    expect(PipelineListView.parse(pipelines.body).items).toContainEqual(expect.objectContaining({ id: 'bpipe_onboarding' }));
    expectNoPortalUrl(pipelines);

    expect((await client.get('/api/businesses/biz_nosuchbusiness')).status).toBe(404);
    expect((await client.get('/api/businesses/not-an-id')).status).toBe(400);
  });

  it('is for staff only', async () => {
    const b = 'biz_harbourcafe';
    await expectStaffOnly([
      { method: 'GET', path: '/api/portal' },
      { method: 'GET', path: '/api/businesses' },
      { method: 'POST', path: '/api/businesses', body: { name: 'Not Allowed Ltd' } },
      { method: 'GET', path: `/api/businesses/${b}` },
      { method: 'POST', path: `/api/businesses/${b}/stage-transitions`, body: { stage_id: 'bstg_x' } },
      { method: 'GET', path: `/api/businesses/${b}/people` },
      { method: 'GET', path: `/api/businesses/${b}/stages` },
      { method: 'POST', path: `/api/businesses/${b}/uploads/upl_x?filename=a.pdf`, body: 'x' },
      { method: 'GET', path: '/api/business-pipelines' },
    ]);
  });
});
