import { describe, expect, it } from 'vitest';
import {
  AnswerFilePage,
  AnswerPage,
  RepeatableItemDeleteResult,
  RepeatableItemMutationResult,
  RepeatableItemPage,
  type RepeatableItem,
} from '@/lib/portal';
import {
  answersEtag,
  appPath,
  createItem,
  currentRevision,
  freshApplication,
  itemsPath,
  listItems,
  readApplication,
  readContract,
  updateItem,
  uploadFile,
} from './support/applications';
import { expectError, newKey, setupSandbox } from './support/sandbox';

const ctx = setupSandbox();

const a = (schema_key: string, value: unknown, field_key = 'value') => ({ schema_key, field_key, value });
const valueOf = (item: RepeatableItem, schema: string, field = 'value') =>
  item.answers.find((x) => x.schema_key === schema && x.field_key === field)?.value;

describe('listing repeatable items', () => {
  it('lists the owners of Brightpath with every field of the group, in order', async () => {
    const { client } = ctx;
    const { etag, page } = await listItems(client, 'ciappl_brightpath', 'owners');
    expect(etag).toBe('"answers-ciappl_brightpath-1"');
    expect(page.answers_revision).toBe(1);
    expect(page.previous_cursor).toBeNull();
    expect(page.next_cursor).toBeNull();
    expect(page.items.map((i) => [i.block_key, i.parent_item_id, i.order, valueOf(i, 'owner_full_name')])).toEqual([
      ['owners', null, 0, 'Nadia Karim'],
      ['owners', null, 1, 'Owen Clarke'],
    ]);
    const contract = await readContract(client, 'ciappl_brightpath');
    const fieldKeys = contract.questions
      .filter((q) => q.is_repeatable && q.block_key === 'owners')
      .sort((x, y) => x.order - y.order)
      .flatMap((q) => q.fields.map((f) => `${q.schema_key}|${f.field_key}`));
    expect(fieldKeys).toHaveLength(7);
    for (const item of page.items) expect(item.answers.map((x) => `${x.schema_key}|${x.field_key}`)).toEqual(fieldKeys);
    const nadia = page.items[0]!;
    expect(nadia.answers.find((x) => x.schema_key === 'owner_guarantee_limit')).toEqual({
      section_key: 'owners',
      section_label: 'Owners',
      block_key: 'owners',
      block_label: 'Owners',
      schema_key: 'owner_guarantee_limit',
      field_key: 'value',
      field_label: 'Guarantee limit',
      value_type: 'number',
      is_required: true,
      allowed_values: [],
      value: 200000,
    });
    expect(valueOf(page.items[1]!, 'owner_guarantee_limit')).toBeNull();
  });

  it('lists nested items with their parent, filtered by parent_item_id', async () => {
    const { client } = ctx;
    const owners = (await listItems(client, 'ciappl_meridian', 'owners')).page.items;
    const [alex, sam] = owners;
    const all = (await listItems(client, 'ciappl_meridian', 'owner_addresses')).page.items;
    expect(all.map((i) => [i.parent_item_id, i.order, valueOf(i, 'owner_address', 'city')])).toEqual([
      [alex!.item_id, 0, 'Harrogate'],
      [sam!.item_id, 0, 'Leeds'],
      [sam!.item_id, 1, 'Manchester'],
    ]);
    const samsOnly = (await listItems(client, 'ciappl_meridian', 'owner_addresses', sam!.item_id)).page.items;
    expect(samsOnly.map((i) => valueOf(i, 'owner_address', 'postal_code'))).toEqual(['LS9 8DT', 'M1 3LW']);
  });

  it('pages forward only with page_size, and refuses bad parameters', async () => {
    const { client } = ctx;
    const first = await client.read(RepeatableItemPage, `${itemsPath('ciappl_pinecrest', 'assets')}?page_size=2`);
    expect(first.data.items.map((i) => valueOf(i, 'asset_description'))).toEqual(['Brewhouse and fermentation tanks', 'Finished stock']);
    expect(first.data.previous_cursor).toBeNull();
    const second = await client.read(RepeatableItemPage, `${itemsPath('ciappl_pinecrest', 'assets')}?page_size=2&cursor=${encodeURIComponent(first.data.next_cursor!)}`);
    expect(second.data.items.map((i) => [valueOf(i, 'asset_description'), i.order])).toEqual([['Trade debtors', 2]]);
    expect(second.data.next_cursor).toBeNull();
    expect(second.data.previous_cursor).toBeNull();
    for (const q of ['?page_size=0', '?page_size=501', '?limit=2', '?parent_item_id=nope']) {
      expectError(await client.get(`${itemsPath('ciappl_pinecrest', 'assets')}${q}`), 400, 'invalid_request');
    }
    const error = expectError(await client.get(`${itemsPath('ciappl_pinecrest', 'assets')}?limit=2`), 400, 'invalid_request');
    expect(error.details.map((d) => d.parameter)).toEqual(['limit']);
    expectError(await client.get(itemsPath('ciappl_pinecrest', 'vehicles')), 404, 'not_found');
  });
});

describe('creating repeatable items', () => {
  it('creates an item with answers (201) and moves answers_revision and the answers ETag', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const res = await client.post(itemsPath(appId, 'owners'), {
      body: { block_key: 'owners', answers: [a('owner_full_name', 'Robin Diaz'), a('owner_ownership_pct', 75), a('owner_dob', '1985-05-05')] },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBe(answersEtag(appId, 1));
    const result = RepeatableItemMutationResult.parse(res.body);
    expect(result.answers_revision).toBe(1);
    expect(result.item).toMatchObject({ object: 'repeatable_item', block_key: 'owners', parent_item_id: null, order: 0 });
    expect(result.item.item_id).toMatch(/^ritem_[a-z0-9]+$/);
    expect(valueOf(result.item, 'owner_full_name')).toBe('Robin Diaz');
    expect(valueOf(result.item, 'owner_ownership_pct')).toBe(75);
    expect(valueOf(result.item, 'owner_email')).toBeNull();
    const listed = await listItems(client, appId, 'owners');
    expect(listed.etag).toBe(answersEtag(appId, 1));
    expect(listed.page.items).toEqual([result.item]);
    const answers = await client.get(`${appPath(appId)}answers/?page_size=1`);
    expect(answers.headers.get('etag')).toBe(answersEtag(appId, 1));
  });

  it('creates an empty item without a body answers list, and checks If-Match only when given', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const plain = await client.post(itemsPath(appId, 'assets'), { body: { block_key: 'assets' } });
    expect(plain.status).toBe(201);
    expect(RepeatableItemMutationResult.parse(plain.body).item.answers.every((x) => x.value === null)).toBe(true);
    const stale = await client.post(itemsPath(appId, 'assets'), { ifMatch: answersEtag(appId, 0), body: { block_key: 'assets' } });
    expect(expectError(stale, 412, 'precondition_failed').details.map((d) => d.parameter)).toEqual(['If-Match']);
    const current = await client.post(itemsPath(appId, 'assets'), { ifMatch: answersEtag(appId, 1), body: { block_key: 'assets' } });
    expect(current.status).toBe(201);
    expect(RepeatableItemMutationResult.parse(current.body)).toMatchObject({ answers_revision: 2, item: { order: 1 } });
  });

  it('replays a create sent again with the same Idempotency-Key', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const key = newKey('item');
    const body = { block_key: 'assets', answers: [a('asset_description', 'Forklift')] };
    const first = await client.post(itemsPath(appId, 'assets'), { body, idempotencyKey: key });
    const again = await client.post(itemsPath(appId, 'assets'), { body, idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await listItems(client, appId, 'assets')).page.items).toHaveLength(1);
  });

  it('validates the answers of a new item all or nothing (422 with keys, no item made)', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const res = await client.post(itemsPath(appId, 'owners'), {
      body: {
        block_key: 'owners',
        answers: [a('owner_full_name', 'Robin Diaz'), a('owner_email', 'robin@'), a('owner_ownership_pct', 120), a('legal_name', 'Wrong Place Ltd'), a('owner_id_document', ['afile_1'], 'files')],
      },
    });
    const error = expectError(res, 422, 'validation_failed');
    expect(error.details.map(({ code, block_key, schema_key, field_key, item_id }) => ({ code, block_key, schema_key, field_key, item_id }))).toEqual([
      { code: 'format', block_key: 'owners', schema_key: 'owner_email', field_key: 'value', item_id: undefined },
      { code: 'maximum', block_key: 'owners', schema_key: 'owner_ownership_pct', field_key: 'value', item_id: undefined },
      { code: 'unknown_field', block_key: 'owners', schema_key: 'legal_name', field_key: 'value', item_id: undefined },
      { code: 'file_field', block_key: 'owners', schema_key: 'owner_id_document', field_key: 'files', item_id: undefined },
    ]);
    expect((await listItems(client, appId, 'owners')).page.items).toEqual([]);
    expect((await readApplication(client, appId)).application.answers_revision).toBe(0);
  });

  it('needs a parent item of the parent group for a nested item', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const owner = await createItem(client, appId, 'owners', [a('owner_full_name', 'Robin Diaz')]);
    const asset = await createItem(client, appId, 'assets', [a('asset_description', 'Van')]);
    const noParent = await client.post(itemsPath(appId, 'owner_addresses'), { body: { block_key: 'owner_addresses' } });
    const e1 = expectError(noParent, 422, 'validation_failed');
    expect(e1.details.map((d) => [d.code, d.parameter, d.block_key])).toEqual([['invalid_parent', 'parent_item_id', 'owner_addresses']]);
    const wrongParent = await client.post(itemsPath(appId, 'owner_addresses'), { body: { block_key: 'owner_addresses', parent_item_id: asset.item_id } });
    expect(expectError(wrongParent, 422, 'validation_failed').details.map((d) => d.code)).toEqual(['invalid_parent']);
    const missingParent = await client.post(itemsPath(appId, 'owner_addresses'), { body: { block_key: 'owner_addresses', parent_item_id: 'ritem_nosuchitem' } });
    expect(expectError(missingParent, 422, 'validation_failed').details.map((d) => d.code)).toEqual(['invalid_parent']);
    const topWithParent = await client.post(itemsPath(appId, 'assets'), { body: { block_key: 'assets', parent_item_id: owner.item_id } });
    expect(expectError(topWithParent, 422, 'validation_failed').details.map((d) => d.code)).toEqual(['unexpected_parent']);
    const mismatch = await client.post(itemsPath(appId, 'assets'), { body: { block_key: 'owners' } });
    expect(expectError(mismatch, 422, 'validation_failed').details.map((d) => d.parameter)).toEqual(['block_key']);

    const nested = await createItem(client, appId, 'owner_addresses', [a('owner_address', 'York', 'city'), a('owner_years_at_address', 3)], owner.item_id);
    expect(nested).toMatchObject({ block_key: 'owner_addresses', parent_item_id: owner.item_id, order: 0 });
    expect(valueOf(nested, 'owner_address', 'city')).toBe('York');
    expect((await listItems(client, appId, 'owner_addresses', owner.item_id)).page.items.map((i) => i.item_id)).toEqual([nested.item_id]);
  });

  it('refuses an item beyond max_items, per parent for nested groups', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    for (let i = 0; i < 4; i++) await createItem(client, appId, 'owners', [a('owner_full_name', `Owner ${i + 1}`)]);
    const revision = (await currentRevision(client, appId)).revision;
    const fifth = await client.post(itemsPath(appId, 'owners'), { body: { block_key: 'owners' } });
    const error = expectError(fifth, 422, 'validation_failed');
    expect(error.details.map((d) => [d.code, d.block_key, d.item_id])).toEqual([['max_items', 'owners', undefined]]);
    expect((await listItems(client, appId, 'owners')).page.items).toHaveLength(4);
    expect((await currentRevision(client, appId)).revision).toBe(revision);

    const [first, second] = (await listItems(client, appId, 'owners')).page.items;
    for (let i = 0; i < 3; i++) await createItem(client, appId, 'owner_addresses', [], first!.item_id);
    const fourth = await client.post(itemsPath(appId, 'owner_addresses'), { body: { block_key: 'owner_addresses', parent_item_id: first!.item_id } });
    expect(expectError(fourth, 422, 'validation_failed').details.map((d) => [d.code, d.block_key, d.item_id])).toEqual([
      ['max_items', 'owner_addresses', first!.item_id],
    ]);
    // Another owner still has room.
    await createItem(client, appId, 'owner_addresses', [], second!.item_id);
  });
});

describe('updating repeatable items', () => {
  it('writes an item with If-Match and answers_revision, moving both', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const owner = await createItem(client, appId, 'owners', [a('owner_full_name', 'Robin Diaz')]);
    const res = await client.patch(`${itemsPath(appId, 'owners')}${owner.item_id}/`, {
      ifMatch: answersEtag(appId, 1),
      body: { answers_revision: 1, answers: [a('owner_email', 'robin@diaz.example'), a('owner_full_name', 'Robin A. Diaz')] },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(answersEtag(appId, 2));
    const result = RepeatableItemMutationResult.parse(res.body);
    expect(result.answers_revision).toBe(2);
    expect(result.item.item_id).toBe(owner.item_id);
    expect(valueOf(result.item, 'owner_full_name')).toBe('Robin A. Diaz');
    expect(valueOf(result.item, 'owner_email')).toBe('robin@diaz.example');
    // null clears; a write that changes nothing keeps the revision.
    const cleared = await updateItem(client, appId, 'owners', owner.item_id, [a('owner_email', null)]);
    expect(RepeatableItemMutationResult.parse(cleared.body).answers_revision).toBe(3);
    const same = await updateItem(client, appId, 'owners', owner.item_id, [a('owner_email', null)]);
    expect(same.status).toBe(200);
    expect(same.headers.get('etag')).toBe(answersEtag(appId, 3));
    expect(RepeatableItemMutationResult.parse(same.body).answers_revision).toBe(3);
  });

  it('requires If-Match (428), refuses stale ones and stale revisions (412)', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const owner = await createItem(client, appId, 'owners', [a('owner_full_name', 'Robin Diaz')]);
    const url = `${itemsPath(appId, 'owners')}${owner.item_id}/`;
    const body = { answers_revision: 1, answers: [a('owner_full_name', 'Changed')] };
    expectError(await client.patch(url, { body }), 428, 'precondition_required');
    expectError(await client.patch(url, { ifMatch: answersEtag(appId, 0), body }), 412, 'precondition_failed');
    const staleBody = await client.patch(url, { ifMatch: answersEtag(appId, 1), body: { ...body, answers_revision: 0 } });
    expect(expectError(staleBody, 412, 'precondition_failed').details.map((d) => d.parameter)).toEqual(['answers_revision']);
    expect(valueOf((await listItems(client, appId, 'owners')).page.items[0]!, 'owner_full_name')).toBe('Robin Diaz');
  });

  it('validates item writes with the item id in every detail', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const owner = await createItem(client, appId, 'owners', [a('owner_full_name', 'Robin Diaz')]);
    const res = await updateItem(client, appId, 'owners', owner.item_id, [
      a('owner_full_name', 'Robin Valid'),
      a('owner_dob', '1985-13-01'),
      a('owner_is_guarantor', 'yes'),
      a('owner_id_document', ['afile_1'], 'files'),
      a('owner_years_at_address', 3),
    ]);
    const error = expectError(res, 422, 'validation_failed');
    expect(error.details.map((d) => [d.code, d.block_key, d.schema_key, d.field_key, d.item_id])).toEqual([
      ['format', 'owners', 'owner_dob', 'value', owner.item_id],
      ['type', 'owners', 'owner_is_guarantor', 'value', owner.item_id],
      ['file_field', 'owners', 'owner_id_document', 'files', owner.item_id],
      ['unknown_field', 'owners', 'owner_years_at_address', 'value', owner.item_id],
    ]);
    expect(valueOf((await listItems(client, appId, 'owners')).page.items[0]!, 'owner_full_name')).toBe('Robin Diaz');
  });

  it('answers 404 for an unknown item or an item named under another group', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const asset = await createItem(client, appId, 'assets', []);
    const body = { answers_revision: 1, answers: [a('owner_full_name', 'X')] };
    expectError(await client.patch(`${itemsPath(appId, 'owners')}ritem_nosuchitem/`, { ifMatch: answersEtag(appId, 1), body }), 404, 'not_found');
    expectError(await client.patch(`${itemsPath(appId, 'owners')}${asset.item_id}/`, { ifMatch: answersEtag(appId, 1), body }), 404, 'not_found');
    expectError(await client.delete(`${itemsPath(appId, 'owners')}${asset.item_id}/`, { ifMatch: answersEtag(appId, 1) }), 404, 'not_found');
  });
});

describe('deleting repeatable items', () => {
  it('refuses to go below min_items', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const owner = await createItem(client, appId, 'owners', [a('owner_full_name', 'Only Owner')]);
    const res = await client.delete(`${itemsPath(appId, 'owners')}${owner.item_id}/`, { ifMatch: answersEtag(appId, 1) });
    const error = expectError(res, 422, 'validation_failed');
    expect(error.details.map((d) => [d.code, d.block_key, d.item_id])).toEqual([['min_items', 'owners', owner.item_id]]);
    expect((await listItems(client, appId, 'owners')).page.items).toHaveLength(1);
    expect((await currentRevision(client, appId)).revision).toBe(1);
  });

  it('requires If-Match (428) and a current one (412)', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const asset = await createItem(client, appId, 'assets', []);
    const url = `${itemsPath(appId, 'assets')}${asset.item_id}/`;
    expectError(await client.delete(url), 428, 'precondition_required');
    expectError(await client.delete(url, { ifMatch: answersEtag(appId, 0) }), 412, 'precondition_failed');
    expect((await listItems(client, appId, 'assets')).page.items).toHaveLength(1);
  });

  it('removes the item with its nested children and their files, moving answers_revision once', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const keep = await createItem(client, appId, 'owners', [a('owner_full_name', 'Keeper')]);
    const gone = await createItem(client, appId, 'owners', [a('owner_full_name', 'Leaver')]);
    const home1 = await createItem(client, appId, 'owner_addresses', [a('owner_address', 'Bath', 'city')], gone.item_id);
    const home2 = await createItem(client, appId, 'owner_addresses', [a('owner_address', 'Wells', 'city')], gone.item_id);
    const keptHome = await createItem(client, appId, 'owner_addresses', [a('owner_address', 'York', 'city')], keep.item_id);
    await uploadFile(client, appId, { block_key: 'owners', schema_key: 'owner_id_document', field_key: 'files', item_id: gone.item_id });
    await uploadFile(client, appId, { block_key: 'owners', schema_key: 'owner_id_document', field_key: 'files', item_id: keep.item_id });
    const { revision } = await currentRevision(client, appId);
    expect(revision).toBe(7);

    const res = await client.delete(`${itemsPath(appId, 'owners')}${gone.item_id}/`, { ifMatch: answersEtag(appId, revision) });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(answersEtag(appId, 8));
    expect(RepeatableItemDeleteResult.parse(res.body)).toEqual({
      deleted_item_ids: [gone.item_id, home1.item_id, home2.item_id],
      answers_revision: 8,
    });
    expect((await listItems(client, appId, 'owners')).page.items.map((i) => i.item_id)).toEqual([keep.item_id]);
    expect((await listItems(client, appId, 'owner_addresses')).page.items.map((i) => i.item_id)).toEqual([keptHome.item_id]);
    const files = await client.read(AnswerFilePage, `${appPath(appId)}files/`);
    expect(files.data.items.map((f) => f.item_id)).toEqual([keep.item_id]);
    const answers = await client.read(AnswerPage, `${appPath(appId)}answers/?page_size=1`);
    expect(answers.res.headers.get('etag')).toBe(answersEtag(appId, 8));
  });

  it('deletes a nested item on its own, and the order of its siblings closes up', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const owner = await createItem(client, appId, 'owners', []);
    const first = await createItem(client, appId, 'owner_addresses', [], owner.item_id);
    const second = await createItem(client, appId, 'owner_addresses', [], owner.item_id);
    const res = await client.delete(`${itemsPath(appId, 'owner_addresses')}${first.item_id}/`, { ifMatch: answersEtag(appId, 3) });
    expect(RepeatableItemDeleteResult.parse(res.body)).toEqual({ deleted_item_ids: [first.item_id], answers_revision: 4 });
    expect((await listItems(client, appId, 'owner_addresses')).page.items.map((i) => [i.item_id, i.order])).toEqual([[second.item_id, 0]]);
  });
});

describe('item writes in the full answer form of spec 2.10 (with block_key)', () => {
  const full = (schema_key: string, value: unknown, block_key = 'owners') => ({ block_key, schema_key, field_key: 'value', value });

  it('takes block_key on create and update when it is the item’s group', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const created = await client.post(itemsPath(appId, 'owners'), { body: { block_key: 'owners', answers: [full('owner_full_name', 'Robin Diaz')] } });
    expect(created.status, created.text).toBe(201);
    const item = RepeatableItemMutationResult.parse(created.body).item;
    expect(valueOf(item, 'owner_full_name')).toBe('Robin Diaz');
    const { revision } = await currentRevision(client, appId);
    const updated = await client.patch(`${itemsPath(appId, 'owners')}${item.item_id}/`, {
      ifMatch: answersEtag(appId, revision),
      body: { answers_revision: revision, answers: [full('owner_full_name', 'Robin Valid'), a('owner_ownership_pct', 40)] },
    });
    expect(updated.status, updated.text).toBe(200);
    const after = RepeatableItemMutationResult.parse(updated.body).item;
    expect([valueOf(after, 'owner_full_name'), valueOf(after, 'owner_ownership_pct')]).toEqual(['Robin Valid', 40]);
  });

  it('refuses a block_key that is not the item’s group (422 naming the answer), changing nothing', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const before = await currentRevision(client, appId);
    const create = await client.post(itemsPath(appId, 'owners'), {
      body: { block_key: 'owners', answers: [full('owner_full_name', 'Robin Diaz'), full('owner_ownership_pct', 10, 'legal_name')] },
    });
    const createError = expectError(create, 422, 'validation_failed');
    expect(createError.details).toEqual([
      expect.objectContaining({ code: 'block_mismatch', parameter: 'answers.1.block_key', block_key: 'legal_name', schema_key: 'owner_ownership_pct', field_key: 'value' }),
    ]);
    expect((await listItems(client, appId, 'owners')).page.items).toEqual([]);
    expect((await currentRevision(client, appId)).revision).toBe(before.revision);

    const owner = await createItem(client, appId, 'owners', [a('owner_full_name', 'Robin Diaz')]);
    const { revision } = await currentRevision(client, appId);
    const update = await client.patch(`${itemsPath(appId, 'owners')}${owner.item_id}/`, {
      ifMatch: answersEtag(appId, revision),
      body: { answers_revision: revision, answers: [full('owner_full_name', 'Someone Else', 'directors')] },
    });
    const updateError = expectError(update, 422, 'validation_failed');
    expect(updateError.details).toEqual([expect.objectContaining({ code: 'block_mismatch', block_key: 'directors', item_id: owner.item_id })]);
    expect(valueOf((await listItems(client, appId, 'owners')).page.items[0]!, 'owner_full_name')).toBe('Robin Diaz');
    expect((await currentRevision(client, appId)).revision).toBe(revision);
  });
});
