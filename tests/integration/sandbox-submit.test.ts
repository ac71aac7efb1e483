import { describe, expect, it } from 'vitest';
import { ApplicationEnvelope } from '@/lib/portal';
import {
  answersEtag,
  appPath,
  createItem,
  currentRevision,
  fillFromExamples,
  freshApplication,
  itemsPath,
  listItems,
  mustWriteAnswers,
  putFile,
  readApplication,
  requestUpload,
  uploadFile,
  w,
} from './support/applications';
import { expectError, newKey, setupSandbox, type SandboxClient } from './support/sandbox';

const ctx = setupSandbox();

const submitUrl = (appId: string) => `${appPath(appId)}submit/`;

async function submit(client: SandboxClient, appId: string, key = newKey('submit')) {
  const { etag } = await readApplication(client, appId);
  return client.post(submitUrl(appId), { ifMatch: etag, idempotencyKey: key });
}

/** The visible required fields of an empty funding application, in contract order. */
const EMPTY_REQUIRED: Array<[string, string]> = [
  ['legal_name', 'value'],
  ['company_type', 'value'],
  ['date_established', 'value'],
  ['industry', 'value'],
  ['employee_count', 'value'],
  ['business_address', 'line1'],
  ['business_address', 'city'],
  ['business_address', 'postal_code'],
  ['business_address', 'country'],
  ['business_description', 'value'],
  ['contact_name', 'value'],
  ['contact_email', 'value'],
  ['contact_phone', 'value'],
  ['funding_amount', 'value'],
  ['funding_purpose', 'value'],
  ['funding_timeline', 'value'],
  ['can_offer_collateral', 'value'],
  ['annual_revenue', 'value'],
  ['net_profit', 'value'],
  ['financial_year_end', 'value'],
  ['has_existing_debt', 'value'],
  ['decl_accurate', 'value'],
  ['decl_credit_check', 'value'],
  ['signatory_name', 'value'],
  ['signature_date', 'value'],
];

const detailsOf = (error: { details: Array<{ code: string; block_key?: string; schema_key?: string; field_key?: string; item_id?: string }> }) =>
  error.details.map(({ code, block_key, schema_key, field_key, item_id }) => ({ code, block_key, schema_key, field_key, item_id }));

describe('submit preconditions', () => {
  it('requires an Idempotency-Key (400)', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const { etag } = await readApplication(client, appId);
    const error = expectError(await client.post(submitUrl(appId), { ifMatch: etag }), 400, 'invalid_request');
    expect(error.details.map((d) => d.parameter)).toEqual(['Idempotency-Key']);
  });

  it('requires If-Match with the application ETag (428 missing, 412 stale or the answers ETag)', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    expectError(await client.post(submitUrl(appId), { idempotencyKey: newKey() }), 428, 'precondition_required');
    const answers = expectError(await client.post(submitUrl(appId), { ifMatch: answersEtag(appId, 0), idempotencyKey: newKey() }), 412, 'precondition_failed');
    expect(answers.details.map((d) => d.parameter)).toEqual(['If-Match']);
    const { etag } = await readApplication(client, appId);
    await mustWriteAnswers(client, appId, [w('legal_name', 'Moved On Ltd')]);
    expectError(await client.post(submitUrl(appId), { ifMatch: etag, idempotencyKey: newKey() }), 412, 'precondition_failed');
  });
});

describe('submit validation', () => {
  it('lists every missing visible required answer and the owners min_items (422)', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const error = expectError(await submit(client, appId), 422, 'validation_failed');
    expect(detailsOf(error)).toEqual([
      ...EMPTY_REQUIRED.map(([key, field]) => ({ code: 'required', block_key: key, schema_key: key, field_key: field, item_id: undefined })),
      { code: 'min_items', block_key: 'owners', schema_key: undefined, field_key: undefined, item_id: undefined },
    ]);
    expect(error.message).toBe('26 required answers are missing.');
    const { application } = await readApplication(client, appId);
    expect(application.submitted_at).toBeNull();
    expect(application.revision).toBe(0);
  });

  it('names missing answers inside items with their item ids, and follows conditions', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const owner = await createItem(client, appId, 'owners', [
      { schema_key: 'owner_full_name', field_key: 'value', value: 'Robin Diaz' },
      { schema_key: 'owner_is_guarantor', field_key: 'value', value: true },
    ]);
    const address = await createItem(client, appId, 'owner_addresses', [{ schema_key: 'owner_address', field_key: 'city', value: 'York' }], owner.item_id);
    await mustWriteAnswers(client, appId, [w('company_type', 'llp'), w('has_existing_debt', true)]);
    const error = expectError(await submit(client, appId), 422, 'validation_failed');
    const details = detailsOf(error);
    // Revealed by the answers: the registration number and the debt amount.
    expect(details.filter((d) => d.item_id === undefined).map((d) => d.schema_key)).toEqual([
      'legal_name',
      'registration_number',
      'date_established',
      'industry',
      'employee_count',
      'business_address',
      'business_address',
      'business_address',
      'business_address',
      'business_description',
      'contact_name',
      'contact_email',
      'contact_phone',
      'funding_amount',
      'funding_purpose',
      'funding_timeline',
      'can_offer_collateral',
      'annual_revenue',
      'net_profit',
      'financial_year_end',
      'existing_debt_amount',
      'decl_accurate',
      'decl_credit_check',
      'signatory_name',
      'signature_date',
    ]);
    expect(details.filter((d) => d.item_id !== undefined)).toEqual([
      { code: 'required', block_key: 'owners', schema_key: 'owner_email', field_key: 'value', item_id: owner.item_id },
      { code: 'required', block_key: 'owners', schema_key: 'owner_ownership_pct', field_key: 'value', item_id: owner.item_id },
      { code: 'required', block_key: 'owners', schema_key: 'owner_dob', field_key: 'value', item_id: owner.item_id },
      { code: 'required', block_key: 'owners', schema_key: 'owner_guarantee_limit', field_key: 'value', item_id: owner.item_id },
      { code: 'required', block_key: 'owner_addresses', schema_key: 'owner_address', field_key: 'line1', item_id: address.item_id },
      { code: 'required', block_key: 'owner_addresses', schema_key: 'owner_address', field_key: 'postal_code', item_id: address.item_id },
      { code: 'required', block_key: 'owner_addresses', schema_key: 'owner_address', field_key: 'country', item_id: address.item_id },
      { code: 'required', block_key: 'owner_addresses', schema_key: 'owner_years_at_address', field_key: 'value', item_id: address.item_id },
    ]);
    expect(details.some((d) => d.code === 'min_items')).toBe(false);
  });
});

describe('submitting', () => {
  it('submits a complete application once, replays the reply for the same key, then refuses every write (409)', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    await fillFromExamples(client, appId);
    const filled = await readApplication(client, appId);
    expect(filled.application.progress).toEqual({ completed_items: 33, total_items: 33, percent: 100 });
    // Something to try deleting and uploading to after submission.
    await uploadFile(client, appId, { block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' }, 'statement');
    const asset = await createItem(client, appId, 'assets', [{ schema_key: 'asset_description', field_key: 'value', value: 'Kiln' }]);
    const lateUpload = await requestUpload(client, appId, { block_key: 'supporting_documents', schema_key: 'supporting_documents', field_key: 'files' });

    // The asset added above is incomplete, so it must be completed (or removed) first.
    const blocked = expectError(await submit(client, appId), 422, 'validation_failed');
    expect(detailsOf(blocked).map((d) => [d.block_key, d.schema_key, d.item_id])).toEqual([
      ['assets', 'asset_type', asset.item_id],
      ['assets', 'asset_value', asset.item_id],
    ]);
    await fillFromExamples(client, appId);
    const { etag, application } = await readApplication(client, appId);
    expect(application.progress).toMatchObject({ percent: 100 });

    const key = newKey('submit');
    const res = await client.post(submitUrl(appId), { ifMatch: etag, idempotencyKey: key });
    expect(res.status).toBe(200);
    const submitted = ApplicationEnvelope.parse(res.body).application;
    expect(submitted.submitted_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(submitted.status).toEqual({ key: 'submitted', label: 'Submitted', updated_at: submitted.submitted_at });
    expect(submitted.revision).toBe(application.revision + 1);
    expect(submitted.answers_revision).toBe(application.answers_revision);
    expect(res.headers.get('etag')).toBe(`"app-${appId}-${submitted.revision}-${submitted.answers_revision}"`);
    expect((await readApplication(client, appId)).application).toEqual(submitted);

    // An identical retry gets the first reply.
    const replay = await client.post(submitUrl(appId), { ifMatch: etag, idempotencyKey: key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(res.body);
    expect(replay.headers.get('etag')).toBe(res.headers.get('etag'));
    // The same key for another precondition is a different command.
    const reused = await client.post(submitUrl(appId), { ifMatch: res.headers.get('etag')!, idempotencyKey: key });
    expectError(reused, 422, 'idempotency_key_reused');

    const expectSubmitted = (r: Parameters<typeof expectError>[0]) => {
      const error = expectError(r, 409, 'conflict');
      expect(error.details.map((d) => d.code)).toEqual(['application_submitted']);
    };
    // A new submit.
    expectSubmitted(await submit(client, appId));
    // Every kind of write.
    const { revision } = await currentRevision(client, appId);
    const ifMatch = answersEtag(appId, revision);
    expectSubmitted(await client.patch(`${appPath(appId)}answers/`, { ifMatch, body: { answers_revision: revision, answers: [w('trading_name', 'Too Late')] } }));
    expectSubmitted(await client.post(itemsPath(appId, 'assets'), { body: { block_key: 'assets' } }));
    expectSubmitted(
      await client.patch(`${itemsPath(appId, 'assets')}${asset.item_id}/`, {
        ifMatch,
        body: { answers_revision: revision, answers: [{ schema_key: 'asset_value', field_key: 'value', value: 1 }] },
      }),
    );
    expectSubmitted(await client.delete(`${itemsPath(appId, 'assets')}${asset.item_id}/`, { ifMatch }));
    expectSubmitted(await client.post(`${appPath(appId)}file-uploads/`, { body: { block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' } }));
    expectSubmitted(await putFile(lateUpload.upload_url, 'too late'));
    const files = (await client.get<{ items: Array<{ id: string }> }>(`${appPath(appId)}files/`)).body.items;
    expect(files).toHaveLength(1);
    expectSubmitted(await client.delete(`${appPath(appId)}files/${files[0]!.id}/`));

    // Nothing moved, and reads still work.
    expect((await currentRevision(client, appId)).revision).toBe(revision);
    expect((await listItems(client, appId, 'assets')).page.items).toHaveLength(1);
    expect((await readApplication(client, appId)).application).toEqual(submitted);
  });

  it('refuses to submit an application that was already submitted (409)', async () => {
    const { client } = ctx;
    const error = expectError(await submit(client, 'ciappl_meridian'), 409, 'conflict');
    expect(error.details.map((d) => d.code)).toEqual(['application_submitted']);
  });

  it('fills and submits the large-contract application (Atlas) from the contract examples alone', async () => {
    const { client } = ctx;
    const appId = 'ciappl_atlaslogistics';
    expectError(await submit(client, appId), 422, 'validation_failed');
    await fillFromExamples(client, appId);
    const { application } = await readApplication(client, appId);
    expect(application.progress?.completed_items).toBe(application.progress?.total_items);
    const res = await submit(client, appId);
    expect(res.status).toBe(200);
    expect(ApplicationEnvelope.parse(res.body).application.status?.key).toBe('submitted');
  });
});
