import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnswerFileDeleteResult,
  AnswerFilePage,
  AnswerPage,
  ApplicationContract,
  DealAnswersMutationResult,
  DealApplication,
  FileUploadCredential,
  RepeatableItemDeleteResult,
  RepeatableItemMutationResult,
  RepeatableItemPage,
} from '@/lib/portal';
import type { SandboxEvent } from '@/server/sandbox/events';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { fillFromExamples, freshApplication, mustWriteAnswers, putFile, readApplication, w } from './support/applications';
import { ContractDriver, createDeal } from './support/deal-applications';
import { KEYS, expectError, newKey, setupSandbox, type SandboxClient, keyWith } from './support/sandbox';
import { contractOperations } from '../support/contract-operations';

const DEALS_READ = keyWith('dealsread', ['deals:read']);
const APPLICATIONS = keyWith('applications', ['applications:read', 'applications:write']);

const ctx = setupSandbox({ keys: [...DEMO_KEYS, DEALS_READ, APPLICATIONS] });

const events: SandboxEvent[] = [];
let unsubscribe = () => {};
beforeAll(() => {
  unsubscribe = ctx.running.sandbox.events.subscribe((e) => events.push(e));
});
afterAll(() => unsubscribe());

const dappUrl = (client: SandboxClient, id: string) => `${client.baseUrl}deal-applications/${id}/`;

async function readDealApplication(client: SandboxClient, url: string) {
  const { res, data } = await client.read(DealApplication, url);
  return { etag: res.headers.get('etag')!, application: data };
}

/** A new deal for a recipient, and a driver for its (empty) deal application. */
async function freshDealApplication(client: SandboxClient, name = 'Conformance deal') {
  const { deal } = await createDeal(client, { name, business_id: 'biz_fairwayvets', recipient_id: 'rcpt_harbourbank' });
  const ref = deal.application as { id: string; url: string };
  const { application } = await readDealApplication(client, ref.url);
  const driver = await ContractDriver.open(client, application.contract_url);
  return { deal, application, driver, id: ref.id };
}

/** The required fields of an empty lender application, in contract order, then the directors' min_items. */
const EMPTY_REQUIRED = [
  'facility_type',
  'requested_amount',
  'term_months',
  'purpose_summary',
  'security_offered',
  'borrower_legal_name',
  'trading_since',
  'annual_turnover',
  'borrower_contact_email',
  'consent_to_share',
  'authorised_signatory',
  'signed_on',
].map((k) => ({ code: 'required', block_key: k, schema_key: k, field_key: 'value' }));

describe('deal application read', () => {
  it('reads a seeded deal application in progress (2.15, not wrapped)', async () => {
    const url = dappUrl(ctx.client, 'dapp_meridiancnc');
    const { etag, application } = await readDealApplication(ctx.client, url);
    expect(etag).toBe('"app-dapp_meridiancnc-0-1"');
    expect(application).toEqual({
      id: 'dapp_meridiancnc',
      object: 'deal_application',
      revision: 0,
      answers_revision: 1,
      status: 'in_progress',
      submitted_at: null,
      created_at: application.created_at,
      updated_at: application.created_at,
      url,
      answers_url: `${url}answers/`,
      contract_url: `${url}contract/`,
      submit_url: `${url}submit/`,
    });
  });

  it('reads a seeded submitted deal application', async () => {
    const { application } = await readDealApplication(ctx.client, dappUrl(ctx.client, 'dapp_oakridgerefit'));
    expect(application).toMatchObject({ revision: 1, answers_revision: 1, status: 'submitted' });
    expect(application.submitted_at).toBe(application.created_at);
  });

  it('keeps deal and intake applications apart: each is 404 at the other’s paths', async () => {
    for (const path of ['', 'contract/', 'answers/', 'files/', 'repeatable-items/directors/']) {
      expectError(await ctx.client.get(`client-intake-applications/dapp_meridiancnc/${path}`), 404, 'not_found');
    }
    for (const path of ['', 'contract/', 'answers/', 'files/', 'repeatable-items/owners/']) {
      expectError(await ctx.client.get(`deal-applications/ciappl_meridian/${path}`), 404, 'not_found');
    }
    const error = expectError(await ctx.client.get('deal-applications/dapp_nope/'), 404, 'not_found');
    expect(error.message).toBe('The deal application does not exist.');
  });
});

describe('deal application contract', () => {
  it('is the lender application, naming the deal application and operations below it', async () => {
    const url = dappUrl(ctx.client, 'dapp_meridiancnc');
    const { res, data } = await ctx.client.read(ApplicationContract, `${url}contract/`);
    // Weak and named by contract_version only: answer writes leave it as it is.
    expect(res.headers.get('etag')).toBe('W/"contract-dapp_meridiancnc-lender-application-2026.11"');
    expect(data).toMatchObject({
      object: 'application_contract',
      contract_version: 'lender-application-2026.11',
      application_name: 'Lender application',
      answers_revision: 1,
      resource: { id: 'dapp_meridiancnc', object: 'deal_application' },
    });
    expect(data.operations).toEqual(contractOperations(url));
  });

  it('has operation URLs that all work', async () => {
    const driver = await ContractDriver.open(ctx.client, `${dappUrl(ctx.client, 'dapp_meridiancnc')}contract/`);
    const answers = await ctx.client.read(AnswerPage, driver.ops.read_answers_url);
    expect(answers.data.answers_revision).toBe(1);
    expect(answers.data.items.find((a) => a.schema_key === 'borrower_legal_name')?.value).toBe('Meridian Engineering Ltd');
    const items = await ctx.client.read(RepeatableItemPage, `${driver.ops.repeatable_items_url}directors/`);
    expect(items.data.items.map((i) => i.answers.find((a) => a.schema_key === 'director_full_name')?.value)).toEqual(['Alex Morgan', 'Sam Patel']);
    const files = await ctx.client.read(AnswerFilePage, driver.ops.files_url);
    expect(files.data.items).toEqual([]);
    const upload = await ctx.client.post(driver.ops.file_uploads_url, {
      body: { block_key: 'management_accounts', schema_key: 'management_accounts', field_key: 'files' },
    });
    expect(upload.status).toBe(201);
    expect(FileUploadCredential.parse(upload.body)).toMatchObject({ request_path: 'management_accounts/management_accounts/files', multiple: true });
  });
});

describe('deal application answers, items and files', () => {
  it('writes answers with If-Match and answers_revision; the result names the deal application', async () => {
    const { driver, id } = await freshDealApplication(ctx.client);
    const seen = events.length;
    const result = await driver.mustWrite([w('facility_type', 'term_loan'), w('requested_amount', 50_000)]);
    expect(DealAnswersMutationResult.parse(result)).toEqual({
      object: 'deal_application_answers',
      application: { id, object: 'deal_application' },
      answers_revision: 1,
      updated_answers: [
        { block_key: 'facility_type', schema_key: 'facility_type', field_key: 'value', value: 'term_loan' },
        { block_key: 'requested_amount', schema_key: 'requested_amount', field_key: 'value', value: 50_000 },
      ],
      affected_section_keys: ['facility'],
    });
    expect(events.slice(seen).map((e) => [e.type, e.data])).toEqual([
      ['application.answers_updated', { application_id: id, object: 'deal_application', answers_revision: 1 }],
    ]);
    const { items, etag } = await driver.answers();
    expect(etag).toBe(`"answers-${id}-1"`);
    expect(items.find((a) => a.schema_key === 'requested_amount')?.value).toBe(50_000);
    const { application } = await readDealApplication(ctx.client, dappUrl(ctx.client, id));
    expect(application).toMatchObject({ answers_revision: 1, status: 'in_progress', revision: 0 });

    // Preconditions and validation work as for intake.
    const body = { answers_revision: 1, answers: [w('term_months', 12)] };
    expectError(await ctx.client.patch(driver.ops.update_answers_url, { body }), 428, 'precondition_required');
    expectError(await ctx.client.patch(driver.ops.update_answers_url, { body, ifMatch: `"answers-${id}-0"` }), 412, 'precondition_failed');
    expectError(await ctx.client.patch(driver.ops.update_answers_url, { body: { ...body, answers_revision: 0 }, ifMatch: etag }), 412, 'precondition_failed');
    const invalid = expectError(await driver.write([w('term_months', 0), w('director_full_name', 'X'), w('management_accounts', [], 'files')]), 422, 'validation_failed');
    expect(invalid.details.map((d) => [d.code, d.schema_key])).toEqual([
      ['minimum', 'term_months'],
      ['unknown_field', 'director_full_name'],
      ['file_field', 'management_accounts'],
    ]);
  });

  it('manages directors as repeatable items', async () => {
    const { driver, id } = await freshDealApplication(ctx.client);
    const created = await driver.createItem('directors', [{ schema_key: 'director_full_name', field_key: 'value', value: 'Chris Hughes' }]);
    expect(created.answers_revision).toBe(1);
    expect(created.item).toMatchObject({ object: 'repeatable_item', block_key: 'directors', parent_item_id: null, order: 0 });
    const updated = await driver.updateItem('directors', created.item.item_id, [{ schema_key: 'director_ownership_pct', field_key: 'value', value: 75 }]);
    expect(updated.status).toBe(200);
    const item = RepeatableItemMutationResult.parse(updated.body).item;
    expect(item.answers.filter((a) => a.value !== null).map((a) => [a.schema_key, a.value])).toEqual([
      ['director_full_name', 'Chris Hughes'],
      ['director_ownership_pct', 75],
    ]);
    const second = await driver.createItem('directors');
    expect(second.item.order).toBe(1);
    const { page, etag } = await driver.items('directors');
    expect(page.items.map((i) => i.item_id)).toEqual([created.item.item_id, second.item.item_id]);
    const deleted = await ctx.client.delete(`${driver.itemsUrl('directors')}${second.item.item_id}/`, { ifMatch: etag });
    expect(RepeatableItemDeleteResult.parse(deleted.body)).toEqual({ deleted_item_ids: [second.item.item_id], answers_revision: 4 });
    // min_items 1: the last director cannot be deleted.
    const last = await ctx.client.delete(`${driver.itemsUrl('directors')}${created.item.item_id}/`, { ifMatch: `"answers-${id}-4"` });
    expect(expectError(last, 422, 'validation_failed').details).toEqual([expect.objectContaining({ code: 'min_items', block_key: 'directors' })]);
    expectError(await ctx.client.get(`${driver.ops.repeatable_items_url}owners/`), 404, 'not_found');
  });

  it('attaches, lists, downloads and deletes management accounts', async () => {
    const { driver, id } = await freshDealApplication(ctx.client);
    const target = { block_key: 'management_accounts', schema_key: 'management_accounts', field_key: 'files' };
    const result = await driver.upload(target, 'P&L to date', 'accounts.pdf');
    expect(result).toEqual({ request_path: 'management_accounts/management_accounts/files', filename: 'accounts.pdf', size: 11, application_file_count: 1, application_file_bytes: 11 });
    const { data } = await ctx.client.read(AnswerFilePage, driver.ops.files_url);
    expect(data.items).toHaveLength(1);
    const file = data.items[0]!;
    expect(file).toMatchObject({ object: 'answer_file', filename: 'accounts.pdf', item_id: null });
    const download = await fetch(file.url);
    expect(await download.text()).toBe('P&L to date');
    const { items } = await driver.answers();
    expect(items.find((a) => a.schema_key === 'management_accounts')?.value).toEqual([file.id]);

    const removed = await ctx.client.delete(`${driver.ops.files_url}${file.id}/`);
    expect(AnswerFileDeleteResult.parse(removed.body)).toEqual({ id: file.id, object: 'answer_file', deleted: true });
    expect((await ctx.client.read(AnswerFilePage, driver.ops.files_url)).data.items).toEqual([]);
    const { application } = await readDealApplication(ctx.client, dappUrl(ctx.client, id));
    expect(application.answers_revision).toBe(2);
    // The file question takes no item, and other fields take no files.
    expectError(await ctx.client.post(driver.ops.file_uploads_url, { body: { ...target, schema_key: 'ebitda', block_key: 'ebitda', field_key: 'value' } }), 422, 'validation_failed');
  });
});

describe('deal application submit', () => {
  it('lists what is missing, submits once complete, then refuses every write', async () => {
    const { driver, id, deal } = await freshDealApplication(ctx.client, 'Submit me');
    const submitUrl = driver.ops.submit_url;
    const etagNow = async () => (await readDealApplication(ctx.client, dappUrl(ctx.client, id))).etag;
    const submit = async (key = newKey('submit')) => ctx.client.post(submitUrl, { ifMatch: await etagNow(), idempotencyKey: key });
    const detailsOf = (e: { details: Array<{ code: string; block_key?: string; schema_key?: string; field_key?: string }> }) =>
      e.details.map(({ code, block_key, schema_key, field_key }) => ({ code, block_key, schema_key, field_key }));

    let error = expectError(await submit(), 422, 'validation_failed');
    expect(error.message).toBe('13 required answers are missing.');
    expect(detailsOf(error)).toEqual([...EMPTY_REQUIRED, { code: 'min_items', block_key: 'directors', schema_key: undefined, field_key: undefined }]);

    // The conditional question becomes required once security is offered.
    await driver.mustWrite([w('security_offered', true)]);
    error = expectError(await submit(), 422, 'validation_failed');
    expect(detailsOf(error).map((d) => d.schema_key)).toContain('security_description');
    expect(detailsOf(error).map((d) => d.schema_key)).not.toContain('security_offered');

    expectError(await ctx.client.post(submitUrl, { idempotencyKey: newKey() }), 428, 'precondition_required');
    expectError(await ctx.client.post(submitUrl, { ifMatch: await etagNow() }), 400, 'invalid_request');

    await driver.fillFromExamples();
    const target = { block_key: 'management_accounts', schema_key: 'management_accounts', field_key: 'files' };
    const late = await driver.requestUpload(target);
    const before = await readDealApplication(ctx.client, dappUrl(ctx.client, id));
    expect(before.application.status).toBe('in_progress');
    const seen = events.length;
    const key = newKey('submit');
    const res = await ctx.client.post(submitUrl, { ifMatch: before.etag, idempotencyKey: key });
    expect(res.status, res.text).toBe(200);
    const submitted = DealApplication.parse(res.body);
    expect(submitted).toEqual({
      ...before.application,
      revision: 1,
      status: 'submitted',
      submitted_at: submitted.submitted_at,
      updated_at: submitted.submitted_at,
    });
    expect(res.headers.get('etag')).toBe(`"app-${id}-1-${before.application.answers_revision}"`);
    expect((await readDealApplication(ctx.client, dappUrl(ctx.client, id))).application).toEqual(submitted);
    expect(events.slice(seen).map((e) => [e.type, e.data])).toEqual([
      [
        'deal_application.submitted',
        { application_id: id, object: 'deal_application', business_id: 'biz_fairwayvets', deal_id: deal.id, submitted_at: submitted.submitted_at },
      ],
    ]);

    // An identical retry is replayed; a new submit is a conflict.
    const replay = await ctx.client.post(submitUrl, { ifMatch: before.etag, idempotencyKey: key });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(replay.body).toEqual(res.body);
    expectError(await submit(), 409, 'conflict');

    // Every write is refused now.
    const { etag, revision, items } = await driver.answers();
    expectError(await ctx.client.patch(driver.ops.update_answers_url, { ifMatch: etag, body: { answers_revision: revision, answers: [w('ebitda', 1)] } }), 409, 'conflict');
    expectError(await ctx.client.post(driver.itemsUrl('directors'), { body: { block_key: 'directors' } }), 409, 'conflict');
    const director = (await driver.items('directors')).page.items[0]!;
    expectError(await ctx.client.patch(`${driver.itemsUrl('directors')}${director.item_id}/`, { ifMatch: etag, body: { answers_revision: revision, answers: [{ schema_key: 'director_dob', field_key: 'value', value: '1980-01-01' }] } }), 409, 'conflict');
    expectError(await ctx.client.delete(`${driver.itemsUrl('directors')}${director.item_id}/`, { ifMatch: etag }), 409, 'conflict');
    expectError(await ctx.client.post(driver.ops.file_uploads_url, { body: target }), 409, 'conflict');
    // Upload credentials issued before the submit no longer take files.
    const put = await putFile(late.upload_url, '%PDF-1.4 late');
    expect([put.status, (put.body as { error: { code: string } }).error.code]).toEqual([409, 'conflict']);
    // Reads still work.
    expect(items.find((a) => a.schema_key === 'consent_to_share')?.value).toBe(true);
  });

  it('refuses writes to a seeded submitted deal application', async () => {
    const driver = await ContractDriver.open(ctx.client, `${dappUrl(ctx.client, 'dapp_bluewaverevolver')}contract/`);
    const { etag, revision } = await driver.answers();
    const error = expectError(await ctx.client.patch(driver.ops.update_answers_url, { ifMatch: etag, body: { answers_revision: revision, answers: [w('ebitda', 1)] } }), 409, 'conflict');
    expect(error.message).toMatch(/^The deal application was submitted on .+ and can no longer be changed\.$/);
  });
});

describe('deal application permissions', () => {
  it('needs deals:read to read and deals:write to write; applications:* does not reach deal applications', async () => {
    const { driver, id } = await freshDealApplication(ctx.client, 'Permissions');
    const url = dappUrl(ctx.client, id);
    const reads = [url, `${url}contract/`, `${url}answers/`, `${url}repeatable-items/directors/`, `${url}files/`];
    for (const path of reads) {
      expect((await ctx.client.get(path, { key: DEALS_READ.token })).status, path).toBe(200);
      expect((await ctx.client.get(path, { key: KEYS.readonly })).status, path).toBe(200);
      expect(expectError(await ctx.client.get(path, { key: APPLICATIONS.token }), 403, 'forbidden').details).toEqual([
        expect.objectContaining({ message: 'Requires deals:read.' }),
      ]);
    }
    const { etag, revision } = await driver.answers();
    for (const key of [DEALS_READ.token, APPLICATIONS.token]) {
      const writes = [
        ctx.client.patch(`${url}answers/`, { key, ifMatch: etag, body: { answers_revision: revision, answers: [w('ebitda', 1)] } }),
        ctx.client.post(`${url}repeatable-items/directors/`, { key, body: { block_key: 'directors' } }),
        ctx.client.post(`${url}file-uploads/`, { key, body: { block_key: 'management_accounts', schema_key: 'management_accounts', field_key: 'files' } }),
        ctx.client.post(`${url}submit/`, { key, ifMatch: `"app-${id}-0-0"`, idempotencyKey: newKey() }),
      ];
      for (const res of await Promise.all(writes)) {
        expect(expectError(res, 403, 'forbidden').details).toEqual([expect.objectContaining({ message: 'Requires deals:write.' })]);
      }
    }
    expect((await driver.answers()).revision).toBe(0);
  });

  it('keeps intake applications on applications:* and announces their answer changes as client intake', async () => {
    expectError(await ctx.client.get('client-intake-applications/ciappl_meridian/', { key: DEALS_READ.token }), 403, 'forbidden');
    expect((await ctx.client.get('client-intake-applications/ciappl_meridian/', { key: APPLICATIONS.token })).status).toBe(200);
    const seen = events.length;
    const result = await mustWriteAnswers(ctx.client, 'ciappl_harbourcafe', [w('legal_name', 'Harbour Street Café Ltd')]);
    expect(events.slice(seen).map((e) => [e.type, e.data])).toEqual([
      ['application.answers_updated', { application_id: 'ciappl_harbourcafe', object: 'client_intake_application', answers_revision: result.answers_revision }],
    ]);
  });

  it('announces an intake submission as application.submitted, still wrapped as {application}', async () => {
    const appId = await freshApplication(ctx.client, 'Intake Events Ltd');
    await fillFromExamples(ctx.client, appId);
    const { etag, application } = await readApplication(ctx.client, appId);
    const seen = events.length;
    const res = await ctx.client.post(application.submit_url, { ifMatch: etag, idempotencyKey: newKey('submit') });
    expect(res.status, res.text).toBe(200);
    const submittedAt = (res.body as { application: { submitted_at: string } }).application.submitted_at;
    expect(events.slice(seen).map((e) => [e.type, e.data])).toEqual([
      [
        'application.submitted',
        { application_id: appId, object: 'client_intake_application', business_id: application.business.id, submitted_at: submittedAt },
      ],
    ]);
  });
});
