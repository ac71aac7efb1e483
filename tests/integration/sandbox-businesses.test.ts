import { describe, expect, it } from 'vitest';
import {
  AnswerFilePage,
  ApplicationContract,
  ApplicationEnvelope,
  BusinessCreateResult,
  BusinessFileUploadResult,
  BusinessPage,
  BusinessPipelinePage,
  BusinessStagePage,
  BusinessStageTransitionResult,
  BusinessStatusResult,
  BusinessSummary,
  ParticipantList,
} from '@/lib/portal';
import { createBusiness } from './support/businesses';
import { KEYS, expectError, newKey, setupSandbox, type SandboxClient } from './support/sandbox';

const ONBOARDING_STAGES = [
  ['bstg_newlead', 'New lead'],
  ['bstg_qualifying', 'Qualifying'],
  ['bstg_appinprogress', 'Application in progress'],
  ['bstg_submitted', 'Submitted'],
  ['bstg_underreview', 'Under review'],
  ['bstg_approved', 'Approved'],
  ['bstg_declined', 'Declined'],
] as const;

const CONTACT = {
  full_name: 'Ada Lovelace',
  email: 'ada@analytical.example',
  phone_number: '+44 20 7946 0001',
  job_title: 'Founder',
};

async function allBusinesses(client: SandboxClient) {
  const { data } = await client.read(BusinessPage, 'businesses/?page_size=100');
  expect(data.next_cursor).toBeNull();
  return data.items;
}

/** PUT bytes to a transfer URL: no Authorization, only the URL's own token. */
function transfer(url: string, bytes: Buffer | string, headers: Record<string, string>) {
  const buf = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  return fetch(url, { method: 'PUT', body: new Uint8Array(buf), headers });
}

async function transferJson(url: string, bytes: Buffer | string, headers: Record<string, string>) {
  const r = await transfer(url, bytes, headers);
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, body: text ? (JSON.parse(text) as unknown) : undefined };
}

describe('business create', () => {
  const ctx = setupSandbox();

  it('creates a business with a contact: 201, Location, ETag, application, uploads and an invitation', async () => {
    const before = await allBusinesses(ctx.client);
    const idem = newKey('create');
    const res = await ctx.client.post('businesses/', { body: { name: 'Analytical Engines Ltd', contact: CONTACT }, idempotencyKey: idem });
    expect(res.status).toBe(201);
    const data = BusinessCreateResult.parse(res.body);
    const id = data.business.id;
    expect(data.business).toEqual({ id, object: 'business', name: 'Analytical Engines Ltd', url: `${ctx.client.baseUrl}businesses/${id}/` });
    expect(res.headers.get('location')).toBe(data.business.url);
    expect(res.headers.get('etag')).toBe(`"business-${id}-0"`);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(data.warnings).toEqual([]);
    expect(data.invitation_url).toMatch(new RegExp(`^${ctx.running.origin}/portal/invitations/[A-Za-z0-9_-]+\\?application=${data.application.id}$`));

    // The business is listed last, its summary and status are readable, and both carry the create's ETag.
    const after = await allBusinesses(ctx.client);
    expect(after).toEqual([...before, data.business]);
    const summary = await ctx.client.read(BusinessSummary, data.business.url);
    expect(summary.data).toEqual(data.business);
    const status = await ctx.client.read(BusinessStatusResult, `businesses/${id}/status/`);
    expect(status.res.headers.get('etag')).toBe(`"business-${id}-0"`);
    expect(status.data).toEqual({
      business: {
        id,
        object: 'business',
        name: 'Analytical Engines Ltd',
        revision: 0,
        url: data.business.url,
        status: { pipeline: 'Onboarding', stage: 'New lead', updated_at: status.data.business.status.updated_at },
        workflow: {
          pipeline: { id: 'bpipe_onboarding', name: 'Onboarding' },
          stage: { id: 'bstg_newlead', name: 'New lead' },
          stages_url: `${ctx.client.baseUrl}business-pipelines/bpipe_onboarding/stages/`,
        },
      },
      application: data.application,
    });

    // The application reference is readable and points back to the business.
    expect(data.application.url).toBe(`${ctx.client.baseUrl}client-intake-applications/${data.application.id}/`);
    const app = await ctx.client.read(ApplicationEnvelope, data.application.url);
    expect(app.data.application.id).toBe(data.application.id);
    expect(app.data.application.business).toEqual(data.business);
    expect(app.data.application.submitted_at).toBeNull();

    // The contact became the primary person.
    const people = await ctx.client.read(ParticipantList, `businesses/${id}/people/`);
    expect(people.data.revision).toBe(0);
    expect(people.data.items).toHaveLength(1);
    expect(people.data.items[0]).toMatchObject({
      object: 'person',
      full_name: 'Ada Lovelace',
      email: 'ada@analytical.example',
      phone_number: '+44 20 7946 0001',
      company_name: 'Analytical Engines Ltd',
      job_title: 'Founder',
      notes: '',
      is_primary: true,
      is_do_not_contact: false,
      owner: null,
      tags: [],
    });
  });

  it('issues one upload credential per top-level file question, outside /v1/', async () => {
    const { data } = await createBusiness(ctx.client, { name: 'Upload Credentials Ltd' });
    const { data: contract } = await ctx.client.read(ApplicationContract, `client-intake-applications/${data.application.id}/contract/`);
    const expected = contract.questions
      .filter((q) => q.answer_shape === 'file' && !q.is_repeatable && q.parent_block_key === null)
      .flatMap((q) =>
        q.fields.map((f) => ({
          request_path: `${q.block_key}/${q.schema_key}/${f.field_key}`,
          multiple: ((f.value_schema as { maxItems?: number }).maxItems ?? 1) > 1,
        })),
      );
    expect(expected.length).toBeGreaterThan(1);
    expect(data.file_uploads.map((u) => ({ request_path: u.request_path, multiple: u.multiple })).sort((a, b) => a.request_path.localeCompare(b.request_path))).toEqual(
      expected.sort((a, b) => a.request_path.localeCompare(b.request_path)),
    );
    expect(data.file_uploads.some((u) => u.multiple)).toBe(true);
    expect(data.file_uploads.some((u) => !u.multiple)).toBe(true);
    for (const u of data.file_uploads) {
      const url = new URL(u.upload_url);
      expect(url.origin).toBe(ctx.running.origin);
      expect(url.pathname).toBe(`/transfers/${u.id}`);
      expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    }
    expect(new Set(data.file_uploads.map((u) => u.id)).size).toBe(data.file_uploads.length);
  });

  it('warns about a missing contact (no invitation) and a possible duplicate name', async () => {
    const first = await createBusiness(ctx.client, { name: 'Twice Named Ltd' });
    expect(first.data.invitation_url).toBeNull();
    expect(first.data.warnings).toEqual([{ code: 'no_contact', message: 'No contact was given, so no client invitation was created.' }]);
    const second = await createBusiness(ctx.client, { name: 'twice named ltd', contact: CONTACT });
    expect(second.data.invitation_url).not.toBeNull();
    expect(second.data.warnings).toEqual([{ code: 'possible_duplicate', message: 'A business named “twice named ltd” already exists.' }]);
    expect(second.data.business.id).not.toBe(first.data.business.id);
    const people = await ctx.client.read(ParticipantList, `businesses/${first.data.business.id}/people/`);
    expect(people.data.items).toEqual([]);
  });

  it('validates the body: 422 naming the property, 400 for malformed JSON', async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{}, 'name'],
      [{ name: 'X', colour: 'red' }, 'colour'],
      [{ name: 'X', contact: { full_name: 'A' } }, 'contact.email'],
      [{ name: 'X', contact: { full_name: 'A', email: 'not-an-email' } }, 'contact.email'],
      [{ name: 'x'.repeat(256) }, 'name'],
      // Text hygiene: what the Portal stores must not hold NUL, lone surrogates or bidi controls.
      [{ name: 'Acme\u0000 Ltd' }, 'name'],
      [{ name: 'Acme \ud800 Ltd' }, 'name'],
      [{ name: 'Acme \u202Edtl' }, 'name'],
      [{ name: 'X', contact: { full_name: 'Ada\u2066', email: 'ada@analytical.example' } }, 'contact.full_name'],
    ];
    for (const [body, parameter] of cases) {
      const res = await ctx.client.post('businesses/', { body, idempotencyKey: newKey() });
      const err = expectError(res, 422, 'validation_failed');
      expect(err.details.map((d) => d.parameter), JSON.stringify(body)).toContain(parameter);
    }
    const raw = await fetch(`${ctx.client.baseUrl}businesses/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ctx.client.defaultKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': newKey() },
      body: '{"name": ',
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });

  it('answers 400 to a JSON body over 1 MiB (the connection stays usable)', async () => {
    const before = (await allBusinesses(ctx.client)).length;
    const res = await ctx.client.post('businesses/', { body: { name: 'x'.repeat(2_000_000) }, idempotencyKey: newKey() });
    const err = expectError(res, 400, 'invalid_request');
    expect(err.message).toBe('The request body is larger than 1048576 bytes.');
    expect((await allBusinesses(ctx.client)).length).toBe(before);
  });
});

describe('business create idempotency', () => {
  const ctx = setupSandbox();

  it('requires an Idempotency-Key and names the header', async () => {
    const before = (await allBusinesses(ctx.client)).length;
    const err = expectError(await ctx.client.post('businesses/', { body: { name: 'No Key Ltd' } }), 400, 'invalid_request');
    expect(err.message).toBe('This command requires an Idempotency-Key header.');
    expect(err.details).toEqual([{ code: 'missing_header', message: 'Send a new Idempotency-Key for each new command.', parameter: 'Idempotency-Key' }]);
    expect((await allBusinesses(ctx.client)).length).toBe(before);
  });

  it('replays the first reply for an identical retry and creates nothing new', async () => {
    const idem = newKey('retry');
    const body = { name: 'Retry Safe Ltd', contact: CONTACT };
    const first = await ctx.client.post('businesses/', { body, idempotencyKey: idem });
    expect(first.status).toBe(201);
    const count = (await allBusinesses(ctx.client)).length;

    const again = await ctx.client.post('businesses/', { body, idempotencyKey: idem });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('request-id')).not.toBe(first.headers.get('request-id'));
    expect((await allBusinesses(ctx.client)).length).toBe(count);
    expect((await allBusinesses(ctx.client)).filter((b) => b.name === 'Retry Safe Ltd')).toHaveLength(1);
  });

  it('refuses the same key with another body or on another path', async () => {
    const idem = newKey('reuse');
    await createWith(idem, { name: 'Original Ltd' });
    const count = (await allBusinesses(ctx.client)).length;

    const other = await ctx.client.post('businesses/', { body: { name: 'Different Ltd' }, idempotencyKey: idem });
    const err = expectError(other, 422, 'idempotency_key_reused');
    expect(err.details).toEqual([
      { code: 'idempotency_key_reused', message: 'Same key, different method, path, body or precondition.', parameter: 'Idempotency-Key' },
    ]);
    // Another path with the same key is another command too.
    const move = await ctx.client.post('businesses/biz_harbourcafe/stage-transitions/', {
      body: { stage_id: 'bstg_qualifying' },
      ifMatch: '"business-biz_harbourcafe-0"',
      idempotencyKey: idem,
    });
    expectError(move, 422, 'idempotency_key_reused');
    expect((await allBusinesses(ctx.client)).length).toBe(count);
  });

  it('scopes keys per API key: another key may use the same Idempotency-Key value', async () => {
    const idem = newKey('scoped');
    await createWith(idem, { name: 'Scoped One Ltd', source_channel_id: 'partner-web' });
    const res = await ctx.client.post('businesses/', { body: { name: 'Scoped One Ltd', source_channel_id: 'partner-web' }, idempotencyKey: idem, key: KEYS.source });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });

  it('replays an error reply for an identical retry with the retry’s own request_id', async () => {
    const idem = newKey('err');
    const first = await ctx.client.post('businesses/', { body: { name: 'X', source_channel_id: 'nope' }, idempotencyKey: idem });
    const e1 = expectError(first, 422, 'validation_failed');
    const again = await ctx.client.post('businesses/', { body: { name: 'X', source_channel_id: 'nope' }, idempotencyKey: idem });
    const e2 = expectError(again, 422, 'validation_failed');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(e2.details).toEqual(e1.details);
    expect(e2.request_id).not.toBe(e1.request_id);
  });

  async function createWith(idem: string, body: object) {
    const res = await ctx.client.post('businesses/', { body, idempotencyKey: idem });
    expect(res.status).toBe(201);
    return BusinessCreateResult.parse(res.body);
  }
});

describe('business file uploads (transfers)', () => {
  const ctx = setupSandbox();

  it('takes bytes with PUT and no Authorization, counting the application’s files', async () => {
    const { data } = await createBusiness(ctx.client, { name: 'Paperwork Ltd' });
    const multi = data.file_uploads.find((u) => u.multiple)!;
    const single = data.file_uploads.find((u) => !u.multiple)!;

    const pdf = Buffer.from('%PDF-1.4 fake statement\n');
    const r1 = await transferJson(multi.upload_url, pdf, { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="statement-jan.pdf"' });
    expect(r1.status).toBe(201);
    expect(r1.headers.get('request-id')).toMatch(/^req_/);
    expect(BusinessFileUploadResult.parse(r1.body)).toEqual({
      request_path: multi.request_path,
      filename: 'statement-jan.pdf',
      size: pdf.length,
      application_file_count: 1,
      application_file_bytes: pdf.length,
    });

    const csv = 'date,amount\n2026-01-01,100\n';
    const r2 = await transferJson(multi.upload_url, csv, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': "attachment; filename*=UTF-8''f%C3%A9vrier.csv" });
    expect(BusinessFileUploadResult.parse(r2.body)).toEqual({
      request_path: multi.request_path,
      filename: 'février.csv',
      size: csv.length,
      application_file_count: 2,
      application_file_bytes: pdf.length + csv.length,
    });

    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const r3 = await transferJson(single.upload_url, png, { 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename=accounts.png' });
    expect(BusinessFileUploadResult.parse(r3.body)).toMatchObject({ filename: 'accounts.png', application_file_count: 3, application_file_bytes: pdf.length + csv.length + png.length });

    // A retried PUT (say, after a lost reply) replaces the single file rather than failing or adding one.
    const again = await transferJson(single.upload_url, png, { 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename=accounts.png' });
    expect(again.status).toBe(201);
    expect(BusinessFileUploadResult.parse(again.body)).toMatchObject({ application_file_count: 3, application_file_bytes: pdf.length + csv.length + png.length });

    // The files are attached to the application.
    const files = await ctx.client.read(AnswerFilePage, `client-intake-applications/${data.application.id}/files/`);
    expect(files.data.items.map((f) => [f.filename, f.size, f.content_type])).toEqual([
      ['statement-jan.pdf', pdf.length, 'application/pdf'],
      ['février.csv', csv.length, 'text/csv'],
      ['accounts.png', png.length, 'image/png'],
    ]);
  });

  it('refuses a tampered token or an unknown upload with 403', async () => {
    const { data } = await createBusiness(ctx.client, { name: 'Tamper Ltd' });
    const u = data.file_uploads.find((x) => x.multiple)!;
    const url = new URL(u.upload_url);
    const token = url.searchParams.get('token')!;
    url.searchParams.set('token', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    const headers = { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="a.pdf"' };
    for (const bad of [url.toString(), u.upload_url.split('?')[0]!, u.upload_url.replace(u.id, 'upl_nope')]) {
      const r = await transferJson(bad, 'data', headers);
      expect(r.status, bad).toBe(403);
      expect(r.body).toMatchObject({ error: { code: 'forbidden', request_id: r.headers.get('request-id') } });
    }
  });

  it('refuses a bad content type, a missing filename and an empty file with 422', async () => {
    const { data } = await createBusiness(ctx.client, { name: 'Bad Files Ltd' });
    const u = data.file_uploads.find((x) => x.multiple)!;
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ 'Content-Type': 'application/x-msdownload', 'Content-Disposition': 'attachment; filename="a.exe"' }, 'data', 'unsupported_type'],
      [{ 'Content-Disposition': 'attachment; filename="a.pdf"' }, 'data', 'unsupported_type'],
      [{ 'Content-Type': 'application/pdf' }, 'data', 'missing_filename'],
      [{ 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="a.pdf"' }, '', 'empty_file'],
    ];
    for (const [headers, bytes, code] of cases) {
      const r = await transferJson(u.upload_url, bytes, headers);
      expect(r.status, code).toBe(422);
      expect(r.body).toMatchObject({ error: { code: 'validation_failed', details: [{ code }] } });
    }
    const files = await ctx.client.read(AnswerFilePage, `client-intake-applications/${data.application.id}/files/`);
    expect(files.data.items).toEqual([]);
  });

  it('takes only PUT at a transfer URL', async () => {
    const { data } = await createBusiness(ctx.client, { name: 'Get Transfer Ltd' });
    const r = await fetch(data.file_uploads[0]!.upload_url);
    expect(r.status).toBe(404);
  });
});

describe('business status and stage transitions', () => {
  const ctx = setupSandbox();

  it('reads the status of a seeded sample business', async () => {
    const { data, res } = await ctx.client.read(BusinessStatusResult, 'businesses/biz_sunrisebakery/status/');
    expect(res.headers.get('etag')).toBe('"business-biz_sunrisebakery-0"');
    expect(data.business).toMatchObject({ id: 'biz_sunrisebakery', name: 'Sunrise Bakery (sample)', revision: 0, is_sample: true });
    expect(data.application).toEqual({
      id: 'ciappl_sunrisebakery',
      object: 'client_intake_application',
      url: `${ctx.client.baseUrl}client-intake-applications/ciappl_sunrisebakery/`,
    });
    const other = await ctx.client.read(BusinessStatusResult, 'businesses/biz_bluewave/status/');
    expect(other.data.business).not.toHaveProperty('is_sample');
    expect(other.data.business.workflow).toEqual({
      pipeline: { id: 'bpipe_renewals', name: 'Renewals' },
      stage: { id: 'bstg_renewaldue', name: 'Renewal due' },
      stages_url: `${ctx.client.baseUrl}business-pipelines/bpipe_renewals/stages/`,
    });
    expect(other.data.business.status).toMatchObject({ pipeline: 'Renewals', stage: 'Renewal due' });
  });

  it('moves a business through its pipeline with If-Match and Idempotency-Key', async () => {
    const { data } = await createBusiness(ctx.client, { name: 'Mover Ltd' });
    const id = data.business.id;
    const path = `businesses/${id}/stage-transitions/`;
    const etag0 = `"business-${id}-0"`;
    const body = { stage_id: 'bstg_qualifying' };

    const noIfMatch = expectError(await ctx.client.post(path, { body, idempotencyKey: newKey() }), 428, 'precondition_required');
    expect(noIfMatch.details).toEqual([{ code: 'missing_header', message: 'Send If-Match with the ETag from your last read.', parameter: 'If-Match' }]);
    const stale = expectError(await ctx.client.post(path, { body, ifMatch: `"business-${id}-7"`, idempotencyKey: newKey() }), 412, 'precondition_failed');
    expect(stale.details[0]).toMatchObject({ code: 'stale_etag', parameter: 'If-Match' });
    const noIdem = expectError(await ctx.client.post(path, { body, ifMatch: etag0 }), 400, 'invalid_request');
    expect(noIdem.details[0]?.parameter).toBe('Idempotency-Key');
    // None of the refused requests moved it.
    expect((await ctx.client.read(BusinessStatusResult, `businesses/${id}/status/`)).data.business.revision).toBe(0);

    const idem = newKey('move');
    const res = await ctx.client.post(path, { body, ifMatch: etag0, idempotencyKey: idem });
    expect(res.status).toBe(200);
    const moved = BusinessStageTransitionResult.parse(res.body);
    expect(moved).toEqual({ id, object: 'business', stage: { id: 'bstg_qualifying', name: 'Qualifying' }, revision: 1, updated_at: moved.updated_at });
    expect(res.headers.get('etag')).toBe(`"business-${id}-1"`);

    const status = await ctx.client.read(BusinessStatusResult, `businesses/${id}/status/`);
    expect(status.res.headers.get('etag')).toBe(`"business-${id}-1"`);
    expect(status.data.business.revision).toBe(1);
    expect(status.data.business.status).toEqual({ pipeline: 'Onboarding', stage: 'Qualifying', updated_at: moved.updated_at });
    expect(status.data.business.workflow.stage).toEqual({ id: 'bstg_qualifying', name: 'Qualifying' });

    // An identical retry replays; the old ETag with a new key is now stale.
    const replay = await ctx.client.post(path, { body, ifMatch: etag0, idempotencyKey: idem });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(res.text);
    expectError(await ctx.client.post(path, { body: { stage_id: 'bstg_submitted' }, ifMatch: etag0, idempotencyKey: newKey() }), 412, 'precondition_failed');

    // A weak validator and a list of validators are accepted.
    const etag1 = `"business-${id}-1"`;
    const next = await ctx.client.post(path, { body: { stage_id: 'bstg_appinprogress' }, ifMatch: `"x", W/${etag1}`, idempotencyKey: newKey() });
    expect(BusinessStageTransitionResult.parse(next.body).revision).toBe(2);
  });

  it('refuses a stage of another pipeline (422), an unknown stage (422), the current stage (409)', async () => {
    const { data } = await createBusiness(ctx.client, { name: 'Stuck Ltd' });
    const id = data.business.id;
    const path = `businesses/${id}/stage-transitions/`;
    const ifMatch = `"business-${id}-0"`;
    for (const stage_id of ['bstg_renewed', 'bstg_nope']) {
      const err = expectError(await ctx.client.post(path, { body: { stage_id }, ifMatch, idempotencyKey: newKey() }), 422, 'validation_failed');
      expect(err.message).toBe('The stage is not part of the Onboarding pipeline.');
      expect(err.details[0]).toMatchObject({ code: 'invalid_stage', parameter: 'stage_id' });
    }
    const same = expectError(await ctx.client.post(path, { body: { stage_id: 'bstg_newlead' }, ifMatch, idempotencyKey: newKey() }), 409, 'conflict');
    expect(same.details[0]).toMatchObject({ code: 'same_stage', parameter: 'stage_id' });
    const bad = expectError(await ctx.client.post(path, { body: { stage: 'bstg_qualifying' }, ifMatch, idempotencyKey: newKey() }), 422, 'validation_failed');
    expect(bad.details.map((d) => d.parameter)).toEqual(expect.arrayContaining(['stage_id', 'stage']));
    expect((await ctx.client.read(BusinessStatusResult, `businesses/${id}/status/`)).data.business.revision).toBe(0);
  });
});

describe('people, pipelines and stages', () => {
  const ctx = setupSandbox();

  it('lists a business’s people with their tags', async () => {
    const { data, res } = await ctx.client.read(ParticipantList, 'businesses/biz_brightpath/people/');
    expect(res.headers.get('etag')).toBe('"people-biz_brightpath-0"');
    expect(data.object).toBe('participant_list');
    expect(data.revision).toBe(0);
    expect(data.items.map((p) => [p.id, p.full_name, p.is_primary, p.tags])).toEqual([
      [
        'pers_nadiakarim',
        'Nadia Karim',
        true,
        [
          { id: 'ptag_decisionmaker', name: 'Decision maker', color: '#2563eb' },
          { id: 'ptag_guarantor', name: 'Guarantor', color: '#16a34a' },
          { id: 'ptag_vip', name: 'VIP', color: '#f59e0b' },
        ],
      ],
      ['pers_owenclarke', 'Owen Clarke', false, []],
      ['pers_ravisingh', 'Ravi Singh', false, [{ id: 'ptag_broker', name: 'Broker', color: null }]],
    ]);
    expect(data.items[0]!.company_name).toBe('Brightpath Dental Group');
    expect(data.items[2]!.owner).toBeNull();
    for (const p of data.items) expect(p.frontend_link).toMatch(/^https?:\/\//);
  });

  it('pages the business pipelines', async () => {
    const { data } = await ctx.client.read(BusinessPipelinePage, 'business-pipelines/');
    expect(data).toEqual({
      object: 'list',
      items: [
        { id: 'bpipe_onboarding', object: 'business_pipeline', name: 'Onboarding', stages_url: `${ctx.client.baseUrl}business-pipelines/bpipe_onboarding/stages/` },
        { id: 'bpipe_renewals', object: 'business_pipeline', name: 'Renewals', stages_url: `${ctx.client.baseUrl}business-pipelines/bpipe_renewals/stages/` },
      ],
      next_cursor: null,
      previous_cursor: null,
    });
  });

  it('pages a pipeline’s stages in order, forward and back', async () => {
    const { data } = await ctx.client.read(BusinessStagePage, 'business-pipelines/bpipe_onboarding/stages/');
    expect(data.items.map((s) => [s.id, s.name, s.order])).toEqual(ONBOARDING_STAGES.map(([id, name], i) => [id, name, i]));
    for (const s of data.items) expect(s.pipeline).toEqual({ id: 'bpipe_onboarding', name: 'Onboarding' });

    const p1 = (await ctx.client.read(BusinessStagePage, 'business-pipelines/bpipe_onboarding/stages/?page_size=3')).data;
    expect(p1.items.map((s) => s.id)).toEqual(['bstg_newlead', 'bstg_qualifying', 'bstg_appinprogress']);
    expect(p1.previous_cursor).toBeNull();
    const p2 = (await ctx.client.read(BusinessStagePage, `business-pipelines/bpipe_onboarding/stages/?page_size=3&cursor=${encodeURIComponent(p1.next_cursor!)}`)).data;
    expect(p2.items.map((s) => s.id)).toEqual(['bstg_submitted', 'bstg_underreview', 'bstg_approved']);
    const p3 = (await ctx.client.read(BusinessStagePage, `business-pipelines/bpipe_onboarding/stages/?page_size=3&cursor=${encodeURIComponent(p2.next_cursor!)}`)).data;
    expect(p3.items.map((s) => s.id)).toEqual(['bstg_declined']);
    expect(p3.next_cursor).toBeNull();
    const back = (await ctx.client.read(BusinessStagePage, `business-pipelines/bpipe_onboarding/stages/?page_size=3&cursor=${encodeURIComponent(p3.previous_cursor!)}`)).data;
    expect(back.items.map((s) => s.id)).toEqual(p2.items.map((s) => s.id));
    // A cursor of one pipeline is refused by another.
    const res = await ctx.client.get(`business-pipelines/bpipe_renewals/stages/?page_size=3&cursor=${encodeURIComponent(p1.next_cursor!)}`);
    expect(expectError(res, 400, 'invalid_request').details[0]?.parameter).toBe('cursor');
  });
});

describe('not found', () => {
  const ctx = setupSandbox();

  it.each([
    ['GET', 'businesses/biz_nope/'],
    ['GET', 'businesses/biz_nope/status/'],
    ['GET', 'businesses/biz_nope/people/'],
    ['GET', 'business-pipelines/bpipe_nope/stages/'],
    ['GET', 'client-intake-applications/ciappl_nope/'],
    ['GET', 'nothing-here/'],
    ['GET', 'businesses/biz_harbourcafe/status/extra/'],
    ['DELETE', 'businesses/'],
    ['PUT', 'businesses/biz_harbourcafe/status/'],
    ['GET', 'businesses/%E0%A4%A/status/'],
  ])('%s %s → 404 not_found', async (method, path) => {
    const err = expectError(await ctx.client.call(method, path), 404, 'not_found');
    expect(err.details).toEqual([]);
  });

  it('404s a stage transition of an unknown business', async () => {
    const res = await ctx.client.post('businesses/biz_nope/stage-transitions/', { body: { stage_id: 'bstg_qualifying' }, ifMatch: '"x"', idempotencyKey: newKey() });
    expect(expectError(res, 404, 'not_found').message).toBe('The business does not exist.');
  });

  it('404s paths outside /v1/', async () => {
    for (const path of ['/', '/v2/businesses/', '/v1']) {
      const r = await fetch(`${ctx.running.origin}${path}`, { headers: { Authorization: `Bearer ${ctx.client.defaultKey}` } });
      expect(r.status, path).toBe(404);
      expect(r.headers.get('request-id')).toMatch(/^req_/);
    }
  });
});
