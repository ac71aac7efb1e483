import { describe, expect, it } from 'vitest';
import { AnswerFileDeleteResult, AnswerFilePage, BusinessFileUploadResult, FileUploadCredential } from '@/lib/portal';
import {
  answerValue,
  appPath,
  createItem,
  currentRevision,
  freshApplication,
  listItems,
  putFile,
  requestUpload,
  uploadFile,
  writeAnswers,
  w,
  type FileTarget,
} from './support/applications';
import { expectError, setupSandbox } from './support/sandbox';

const ctx = setupSandbox();

const BANK: FileTarget = { block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' };
const ACCOUNTS: FileTarget = { block_key: 'annual_accounts', schema_key: 'annual_accounts', field_key: 'files' };
const ownerId = (item_id: string): FileTarget => ({ block_key: 'owners', schema_key: 'owner_id_document', field_key: 'files', item_id });

const listFiles = async (appId: string, query = '') => (await ctx.client.read(AnswerFilePage, `${appPath(appId)}files/${query}`)).data;

describe('upload credentials', () => {
  it('issues a signed upload URL for a file question', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const res = await client.post(`${appPath(appId)}file-uploads/`, { body: BANK });
    expect(res.status).toBe(201);
    const credential = FileUploadCredential.parse(res.body);
    expect(credential).toMatchObject({ object: 'file_upload', request_path: 'bank_statements/bank_statements/files', multiple: true });
    // The transfer URL is outside the API (no key goes there) and carries its own token.
    const url = new URL(credential.upload_url);
    expect(url.origin).toBe(new URL(client.baseUrl).origin);
    expect(url.pathname.startsWith('/v1/')).toBe(false);
    expect(url.searchParams.get('token')).toMatch(/.{16,}/);
    const single = await requestUpload(client, appId, ACCOUNTS);
    expect(single).toMatchObject({ request_path: 'annual_accounts/annual_accounts/files', multiple: false });
    // Requesting credentials changes no answer.
    expect((await currentRevision(client, appId)).revision).toBe(0);
  });

  it('needs an item of the group for a repeatable file question, and none for a top-level one', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const owner = await createItem(client, appId, 'owners', []);
    const asset = await createItem(client, appId, 'assets', []);
    const url = `${appPath(appId)}file-uploads/`;
    const { item_id: _unused, ...noItem } = ownerId(owner.item_id);
    const missing = expectError(await client.post(url, { body: noItem }), 422, 'validation_failed');
    expect(missing.details.map((d) => [d.code, d.parameter, d.block_key, d.schema_key, d.field_key])).toEqual([
      ['invalid_item', 'item_id', 'owners', 'owner_id_document', 'files'],
    ]);
    expect(expectError(await client.post(url, { body: ownerId(asset.item_id) }), 422, 'validation_failed').details.map((d) => d.code)).toEqual(['invalid_item']);
    const unexpected = expectError(await client.post(url, { body: { ...BANK, item_id: owner.item_id } }), 422, 'validation_failed');
    expect(unexpected.details.map((d) => d.code)).toEqual(['unexpected_item']);
    const credential = await requestUpload(client, appId, ownerId(owner.item_id));
    expect(credential).toMatchObject({ request_path: `owners/${owner.item_id}/owner_id_document/files`, multiple: false });
  });

  it('refuses fields that do not take files', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const url = `${appPath(appId)}file-uploads/`;
    for (const body of [
      { block_key: 'legal_name', schema_key: 'legal_name', field_key: 'value' },
      { block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'value' },
      { block_key: 'nothing', schema_key: 'nothing', field_key: 'files' },
    ]) {
      const error = expectError(await client.post(url, { body }), 422, 'validation_failed');
      expect(error.details.map((d) => [d.code, d.block_key, d.schema_key, d.field_key])).toEqual([['not_a_file_field', body.block_key, body.schema_key, body.field_key]]);
    }
    expectError(await client.post(url, { body: { ...BANK, extra: 1 } }), 422, 'validation_failed');
  });
});

describe('transfers', () => {
  it('takes the bytes with PUT and no Authorization header (201, BusinessFileUploadResult)', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const credential = await requestUpload(client, appId, BANK);
    const res = await putFile(credential.upload_url, 'hello, statements', { contentType: 'text/plain', filename: 'march.txt' });
    expect(res.status).toBe(201);
    expect(BusinessFileUploadResult.parse(res.body)).toEqual({
      request_path: 'bank_statements/bank_statements/files',
      filename: 'march.txt',
      size: 17,
      application_file_count: 1,
      application_file_bytes: 17,
    });
    const second = await putFile(credential.upload_url, '%PDF-1.7 april', { filename: 'april.pdf' });
    expect(BusinessFileUploadResult.parse(second.body)).toMatchObject({ filename: 'april.pdf', size: 14, application_file_count: 2, application_file_bytes: 31 });
    // Every attached file moves answers_revision.
    expect((await currentRevision(client, appId)).revision).toBe(2);
  });

  it('reads the file name from filename* (RFC 6266) and keeps non-ASCII names', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const credential = await requestUpload(client, appId, ACCOUNTS);
    const name = 'Bilanz 2025 – Übersicht.pdf';
    const r = await fetch(credential.upload_url, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="fallback.pdf"; filename*=UTF-8''${encodeURIComponent(name)}` },
      body: '%PDF-1.4',
    });
    expect(r.status).toBe(201);
    expect(BusinessFileUploadResult.parse(await r.json()).filename).toBe(name);
    expect((await listFiles(appId)).items.map((f) => f.filename)).toEqual([name]);
  });

  it('refuses a wrong token; a retried single-file PUT replaces the file', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const credential = await requestUpload(client, appId, ACCOUNTS);
    const forged = new URL(credential.upload_url);
    forged.searchParams.set('token', 'forged-token-value');
    expectError(await putFile(forged.toString(), 'x'), 403, 'forbidden');
    expect((await putFile(credential.upload_url, 'first')).status).toBe(201);
    expect((await putFile(credential.upload_url, 'second')).status).toBe(201);
    expect((await listFiles(appId)).items.map((f) => f.size)).toEqual(['second'.length]);
  });

  it('refuses a type that is not accepted, a missing file name and an empty file (422 with the question keys)', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const credential = await requestUpload(client, appId, BANK);
    const wrongType = expectError(await putFile(credential.upload_url, 'MZ', { contentType: 'application/x-msdownload', filename: 'setup.exe' }), 422, 'validation_failed');
    expect(wrongType.details.map((d) => [d.code, d.parameter, d.block_key, d.schema_key, d.field_key])).toEqual([
      ['unsupported_type', 'Content-Type', 'bank_statements', 'bank_statements', 'files'],
    ]);
    const noName = expectError(await putFile(credential.upload_url, 'data', { filename: null }), 422, 'validation_failed');
    expect(noName.details.map((d) => [d.code, d.parameter])).toEqual([['missing_filename', 'Content-Disposition']]);
    const empty = expectError(await putFile(credential.upload_url, ''), 422, 'validation_failed');
    expect(empty.details.map((d) => d.code)).toEqual(['empty_file']);
    expect((await listFiles(appId)).items).toEqual([]);
    expect((await currentRevision(client, appId)).revision).toBe(0);
  });

  it('refuses more files than the question takes', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const credential = await requestUpload(client, appId, BANK);
    for (let i = 1; i <= 10; i++) expect((await putFile(credential.upload_url, `statement ${i}`, { filename: `s${i}.pdf` })).status).toBe(201);
    const eleventh = expectError(await putFile(credential.upload_url, 'statement 11', { filename: 's11.pdf' }), 422, 'validation_failed');
    expect(eleventh.details.map((d) => [d.code, d.block_key, d.schema_key, d.field_key])).toEqual([['too_many_files', 'bank_statements', 'bank_statements', 'files']]);
    expect((await listFiles(appId)).items).toHaveLength(10);
  });

  it('keeps only the newest file of a single-file question', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    await uploadFile(client, appId, ACCOUNTS, 'old accounts', { filename: 'accounts-2024.pdf' });
    const result = await uploadFile(client, appId, ACCOUNTS, 'new accounts!', { filename: 'accounts-2025.pdf' });
    expect(result).toMatchObject({ application_file_count: 1, application_file_bytes: 13 });
    const files = await listFiles(appId);
    expect(files.items.map((f) => f.filename)).toEqual(['accounts-2025.pdf']);
    expect(await answerValue(client, appId, 'annual_accounts', 'files')).toEqual([files.items[0]!.id]);
  });
});

describe('size limit', () => {
  const small = setupSandbox({ maxUploadBytes: 1024 });

  it('refuses a file larger than the limit (422) and takes one of exactly the limit', async () => {
    const { client } = small;
    const appId = await freshApplication(client);
    const credential = await requestUpload(client, appId, BANK);
    const big = expectError(await putFile(credential.upload_url, 'x'.repeat(1025)), 422, 'validation_failed');
    expect(big.details.map((d) => [d.code, d.block_key, d.schema_key, d.field_key])).toEqual([['file_too_large', 'bank_statements', 'bank_statements', 'files']]);
    expect(big.message).toContain('1 KiB');
    const exact = await putFile(credential.upload_url, 'x'.repeat(1024));
    expect(exact.status).toBe(201);
    expect(BusinessFileUploadResult.parse(exact.body).size).toBe(1024);
  });
});

describe('expired upload URLs', () => {
  // Credentials that expire a second before they are issued: every transfer comes too late.
  const expired = setupSandbox({ uploadTtlSeconds: -1 });

  it('refuses a transfer after the upload URL expired (403)', async () => {
    const { client } = expired;
    const appId = await freshApplication(client);
    const credential = await requestUpload(client, appId, BANK);
    const error = expectError(await putFile(credential.upload_url, 'late'), 403, 'forbidden');
    expect(error.details.map((d) => d.code)).toEqual(['upload_url_expired']);
    expect((await currentRevision(client, appId)).revision).toBe(0);
  });
});

describe('answer files', () => {
  it('lists files (AnswerFilePage) with filters, and shows them as the answer value', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const [owner1, owner2] = [await createItem(client, appId, 'owners', []), await createItem(client, appId, 'owners', [])];
    await uploadFile(client, appId, BANK, 'jan', { filename: 'jan.pdf' });
    await uploadFile(client, appId, BANK, 'feb', { filename: 'feb.pdf' });
    await uploadFile(client, appId, ACCOUNTS, 'accounts', { filename: 'accounts.pdf' });
    await uploadFile(client, appId, ownerId(owner1.item_id), 'passport', { filename: 'passport.png', contentType: 'image/png' });
    await uploadFile(client, appId, ownerId(owner2.item_id), 'licence', { filename: 'licence.jpg', contentType: 'image/jpeg' });

    const all = await listFiles(appId);
    expect(all.previous_cursor).toBeNull();
    expect(all.next_cursor).toBeNull();
    expect(all.items.map((f) => [f.filename, f.block_key, f.item_id])).toEqual([
      ['jan.pdf', 'bank_statements', null],
      ['feb.pdf', 'bank_statements', null],
      ['accounts.pdf', 'annual_accounts', null],
      ['passport.png', 'owners', owner1.item_id],
      ['licence.jpg', 'owners', owner2.item_id],
    ]);
    const jan = all.items[0]!;
    expect(jan).toMatchObject({ object: 'answer_file', schema_key: 'bank_statements', field_key: 'files', content_type: 'application/pdf', size: 3 });
    expect(jan.id).toMatch(/^afile_[a-z0-9]+$/);

    expect((await listFiles(appId, '?block_key=bank_statements')).items.map((f) => f.filename)).toEqual(['jan.pdf', 'feb.pdf']);
    expect((await listFiles(appId, `?item_id=${owner2.item_id}`)).items.map((f) => f.filename)).toEqual(['licence.jpg']);
    expect((await listFiles(appId, '?schema_key=owner_id_document&field_key=files')).items).toHaveLength(2);
    const page1 = await listFiles(appId, '?page_size=2');
    expect(page1.items.map((f) => f.filename)).toEqual(['jan.pdf', 'feb.pdf']);
    const page2 = await listFiles(appId, `?page_size=2&cursor=${encodeURIComponent(page1.next_cursor!)}`);
    expect(page2.items.map((f) => f.filename)).toEqual(['accounts.pdf', 'passport.png']);
    expect(page2.previous_cursor).toBeNull();
    expectError(await client.get(`${appPath(appId)}files/?kind=pdf`), 400, 'invalid_request');
    expectError(await client.get(`${appPath(appId)}files/?page_size=101`), 400, 'invalid_request');

    // File values are the ids of the attached files, at the top level and in items.
    expect(await answerValue(client, appId, 'bank_statements', 'files')).toEqual([all.items[0]!.id, all.items[1]!.id]);
    const owners = (await listItems(client, appId, 'owners')).page.items;
    expect(owners.map((o) => o.answers.find((x) => x.schema_key === 'owner_id_document')?.value)).toEqual([[all.items[3]!.id], [all.items[4]!.id]]);
  });

  it('serves the bytes at the download url without the API key', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const content = 'col_a,col_b\n1,2\n';
    await uploadFile(client, appId, BANK, content, { contentType: 'text/csv', filename: 'ledger.csv' });
    const [file] = (await listFiles(appId)).items;
    const r = await fetch(file!.url);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv');
    expect(await r.text()).toBe(content);
    const tampered = new URL(file!.url);
    tampered.searchParams.set('token', 'x');
    expect((await fetch(tampered)).status).toBe(403);
  });

  it('deletes a file, moving answers_revision and the answer value', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    await uploadFile(client, appId, BANK, 'one', { filename: 'one.pdf' });
    await uploadFile(client, appId, BANK, 'two', { filename: 'two.pdf' });
    const [one, two] = (await listFiles(appId)).items;
    const res = await client.delete(`${appPath(appId)}files/${one!.id}/`);
    expect(res.status).toBe(200);
    expect(AnswerFileDeleteResult.parse(res.body)).toEqual({ id: one!.id, object: 'answer_file', deleted: true });
    expect((await currentRevision(client, appId)).revision).toBe(3);
    expect(await answerValue(client, appId, 'bank_statements', 'files')).toEqual([two!.id]);
    expect((await fetch(one!.url)).status).toBe(404);
    expectError(await client.delete(`${appPath(appId)}files/${one!.id}/`), 404, 'not_found');
    await client.delete(`${appPath(appId)}files/${two!.id}/`);
    expect(await answerValue(client, appId, 'bank_statements', 'files')).toBeNull();
  });

  it('cannot be written as an answer value', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const res = await writeAnswers(client, appId, [w('annual_accounts', ['afile_abc'], 'files')]);
    expect(expectError(res, 422, 'validation_failed').details.map((d) => d.code)).toEqual(['file_field']);
  });
});
