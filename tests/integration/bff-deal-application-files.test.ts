import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BffErrorBody } from '@/lib/bff/errors';
import { FileDeleteResult, FilesPageView, FileUploadResult } from '@/lib/bff/files';
import { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { signedIn, type BffClient } from './support/bff';
import { auditRows, auditRowsOfApplication, createDeal, expectNoPortalUrl, expectStaffOnly, portalHost } from './support/bff-businesses';

/** The lender contract's file question (the deal application's only one). */
const ACCOUNTS = { block_key: 'management_accounts', schema_key: 'management_accounts', field_key: 'files' };

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function pdfBytes(size: number): Uint8Array {
  const bytes = randomBytes(size);
  bytes.write('%PDF-1.4\n', 0, 'latin1');
  return new Uint8Array(bytes);
}

async function newDealApplication(client: BffClient) {
  const { deal } = await createDeal(client, { recipient_id: 'rcpt_harbourbank' });
  const id = deal.application!.id;
  return { id, base: `/api/deal-applications/${id}` };
}

/** POSTs a file the way the form's upload control does: raw bytes, Content-Type, X-Filename, X-CSRF. */
async function upload(client: BffClient, base: string, target: Record<string, string>, bytes: Uint8Array, filename: string, contentType = 'application/pdf') {
  const res = await fetch(`${client.base}${base}/files?${new URLSearchParams(target)}`, {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      'Content-Type': contentType,
      'X-Filename': encodeURIComponent(filename),
      'X-CSRF': '1',
      Origin: client.base,
      Cookie: client.cookieHeader(),
    },
    body: bytes as BodyInit,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as unknown };
}

async function download(client: BffClient, base: string, fileId: string) {
  const res = await fetch(`${client.base}${base}/files/${fileId}/download`, { headers: { Cookie: client.cookieHeader() } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('deal application files', () => {
  it('uploads to the file question, lists without any Portal URL, downloads the same bytes, and deletes', async () => {
    const { client } = await signedIn('staff');
    const { id, base } = await newDealApplication(client);
    const bytes = pdfBytes(300_000);

    const r = await upload(client, base, ACCOUNTS, bytes, 'Management accounts – Q1.pdf');
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    const file = FileUploadResult.parse(r.body).file;
    expect(file).toMatchObject({ ...ACCOUNTS, filename: 'Management accounts – Q1.pdf', size: bytes.byteLength, item_id: null });
    expect(r.text.includes(portalHost())).toBe(false);

    const listed = await client.get(`${base}/files`);
    expect(listed.status).toBe(200);
    expect(FilesPageView.parse(listed.body).items).toEqual([file]);
    expectNoPortalUrl(listed);
    const filtered = await client.get(`${base}/files?block_key=management_accounts&page_size=1`);
    expect(FilesPageView.parse(filtered.body).items.map((f) => f.id)).toEqual([file.id]);

    // The form opens with it, as it does an intake application's files.
    const snapshot = FormSnapshotView.parse((await client.get(`${base}/form`)).body);
    expect(snapshot.files.map((f) => f.id)).toEqual([file.id]);

    const got = await download(client, base, file.id);
    expect(got.status).toBe(200);
    expect(sha(got.bytes)).toBe(sha(bytes));
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('cache-control')).toBe('private, no-store');

    const removed = await client.delete(`${base}/files/${file.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(FileDeleteResult.parse(removed.body)).toEqual({ id: file.id, deleted: true });
    expect(FilesPageView.parse((await client.get(`${base}/files`)).body).items).toEqual([]);
    expect((await download(client, base, file.id)).status).toBe(404);
    expect((await client.delete(`${base}/files/${file.id}`)).status).toBe(404);
    expect((await client.delete(`${base}/files/file_1`)).status).toBe(400);

    expect((await auditRowsOfApplication('deal_application.file_upload', id)).map((a) => [a.object_type, a.object_id, a.status, a.outcome])).toEqual([
      ['file_question', 'management_accounts/management_accounts/files', 201, 'success'],
    ]);
    const deletes = await auditRows('deal_application.file_delete', file.id);
    expect(deletes.map((a) => [a.application_id, a.status])).toEqual([
      [id, 200],
      [id, 404],
    ]);
    expect(deletes[0]!.upstream_request_id).toMatch(/^req_/);
  });

  it('passes the refusals on, naming the field, and keeps one application’s files to itself', async () => {
    const { client } = await signedIn('staff');
    const { base } = await newDealApplication(client);
    const other = await newDealApplication(client);

    const wrongType = await upload(client, base, ACCOUNTS, pdfBytes(100), 'tool.exe', 'application/x-msdownload');
    expect(wrongType.status).toBe(422);
    expect(BffErrorBody.parse(wrongType.body).error.details).toEqual([expect.objectContaining({ code: 'unsupported_type', ...ACCOUNTS })]);

    const notAFile = await upload(client, base, { block_key: 'purpose_summary', schema_key: 'purpose_summary', field_key: 'value' }, pdfBytes(100), 'a.pdf');
    expect(notAFile.status).toBe(422);
    expect(BffErrorBody.parse(notAFile.body).error.details).toEqual([expect.objectContaining({ code: 'not_a_file_field' })]);

    const mine = FileUploadResult.parse((await upload(client, base, ACCOUNTS, pdfBytes(500), 'mine.pdf')).body).file;
    expect((await download(client, other.base, mine.id)).status).toBe(404);
    expect((await client.delete(`${other.base}/files/${mine.id}`)).status).toBe(404);
    expect((await download(client, base, mine.id)).status).toBe(200);
  });

  it('is for staff only', async () => {
    const base = '/api/deal-applications/dapp_sunriseoven';
    await expectStaffOnly([
      { method: 'GET', path: `${base}/files` },
      { method: 'POST', path: `${base}/files?${new URLSearchParams(ACCOUNTS)}` },
      { method: 'DELETE', path: `${base}/files/afile_x` },
      { method: 'GET', path: `${base}/files/afile_x/download` },
    ]);
  });
});
