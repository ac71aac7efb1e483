import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BffErrorBody } from '@/lib/bff/errors';
import { FileDeleteResult, FilesPageView, FileUploadResult, MAX_UPLOAD_BYTES, type FileView } from '@/lib/bff/files';
import { ItemWriteResult } from '@/lib/bff/items';
import { AnswerFilePage } from '@/lib/portal';
import { listAudit } from '@/server/audit';
import type { RunningSandbox } from '@/server/sandbox/server';
import { appPath, freshApplication } from './support/applications';
import { BffClient, bffDb, bffStack, clientSessionFor, signedIn } from './support/bff';
import { KEYS, SandboxClient } from './support/sandbox';

/** The stack's sandbox, called directly with the demo key: each test makes its own business. */
const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);
const newApp = () => freshApplication(portal(), 'BFF Files Test Ltd');

interface Target {
  block_key: string;
  schema_key: string;
  field_key: string;
  item_id?: string;
}
const BANK: Target = { block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' };
const ACCOUNTS: Target = { block_key: 'annual_accounts', schema_key: 'annual_accounts', field_key: 'files' };

const filesOf = (appId: string) => `/api/applications/${appId}/files`;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const errorOf = (r: { body: unknown }) => BffErrorBody.parse(r.body).error;

/** A PDF-typed body of `size` bytes: a PDF header, then random bytes (so a corrupted copy cannot match). */
function pdfBytes(size: number): Uint8Array {
  const bytes = randomBytes(size);
  bytes.write('%PDF-1.4\n', 0, 'latin1');
  return new Uint8Array(bytes);
}

/**
 * The body as the browser streams it: chunks of 64 KiB, no Content-Length (chunked transfer encoding).
 * With `hold`, the bytes past `hold.at` wait until `hold.until` resolves.
 */
function streamOf(bytes: Uint8Array, chunk = 64 * 1024, hold?: { at: number; until: () => Promise<void> }): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    async pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      if (hold && at >= hold.at) {
        await hold.until();
        hold = undefined;
      }
      controller.enqueue(bytes.subarray(at, at + chunk));
      at += chunk;
    },
  });
}

/** Waits until the BFF's log shows it asked the Portal for upload credentials for this application. */
async function credentialsRequested(appId: string) {
  for (let i = 0; i < 100; i++) {
    const log = readFileSync(bffStack().logFile, 'utf8');
    if (log.split('\n').some((l) => l.includes(`/client-intake-applications/${appId}/file-uploads/`) && l.includes('"status":201'))) return;
    await sleep(50);
  }
  throw new Error('the BFF did not start the upload while the body was still arriving');
}

interface UploadOptions {
  contentType?: string;
  filename?: string | null;
  csrf?: boolean;
  headers?: Record<string, string>;
}

/** POSTs a file the way the app's upload control does: raw bytes, Content-Type, X-Filename (percent-encoded). */
async function upload(client: BffClient, appId: string, target: Target, body: Uint8Array | ReadableStream<Uint8Array>, o: UploadOptions = {}) {
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': o.contentType ?? 'application/pdf', ...o.headers };
  const filename = o.filename === undefined ? 'statement.pdf' : o.filename;
  if (filename !== null) headers['X-Filename'] = encodeURIComponent(filename);
  if (o.csrf !== false) {
    headers['X-CSRF'] = '1';
    headers.Origin = client.base;
  }
  if (client.cookies.size) headers.Cookie = client.cookieHeader();
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers, body: body as BodyInit };
  if (body instanceof ReadableStream) init.duplex = 'half';
  const res = await fetch(`${client.base}${filesOf(appId)}?${new URLSearchParams({ ...target })}`, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

async function mustUpload(client: BffClient, appId: string, target: Target, body: Uint8Array | ReadableStream<Uint8Array>, o: UploadOptions = {}) {
  const r = await upload(client, appId, target, body, o);
  if (r.status !== 201) throw new Error(`upload → ${r.status}: ${r.text}`);
  return FileUploadResult.parse(r.body).file;
}

async function download(client: BffClient, appId: string, fileId: string) {
  const res = await fetch(`${client.base}${filesOf(appId)}/${fileId}/download`, { headers: client.cookies.size ? { Cookie: client.cookieHeader() } : {} });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const list = async (client: BffClient, appId: string, query = '') => {
  const r = await client.get(`${filesOf(appId)}${query}`);
  if (r.status !== 200) throw new Error(`list → ${r.status}: ${r.text}`);
  return FilesPageView.parse(r.body);
};

/** What the Portal itself holds, read with the demo key. */
const portalFiles = async (appId: string) => (await portal().read(AnswerFilePage, `${appPath(appId)}files/?page_size=100`)).data.items;

describe('file uploads through the BFF', () => {
  it('streams a 3 MB file to the Portal, lists it without any URL, and downloads the identical bytes', async () => {
    const appId = await newApp();
    const { client } = await signedIn('staff');
    const bytes = pdfBytes(3 * 1024 * 1024);
    const name = 'Relevé bancaire – mars 2026.pdf';

    // Two thirds of the file wait until the BFF has started on the upload: a BFF that buffered the whole
    // body before acting would never get there.
    const r = await upload(client, appId, BANK, streamOf(bytes, 64 * 1024, { at: 1024 * 1024, until: () => credentialsRequested(appId) }), { filename: name });
    expect(r.status).toBe(201);
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    const file = FileUploadResult.parse(r.body).file;
    expect(file).toMatchObject({ filename: name, content_type: 'application/pdf', size: bytes.byteLength, ...BANK, item_id: null });
    expect(file.id).toMatch(/^afile_[a-z0-9]+$/);
    const portalHost = new URL(bffStack().sandboxBaseUrl).host;
    expect(r.text.includes(portalHost)).toBe(false);
    expect(r.text).not.toMatch(/url/i);

    // The Portal got every byte, under the right name.
    const held = (await portalFiles(appId)).find((f) => f.id === file.id);
    expect(held).toMatchObject({ filename: name, size: bytes.byteLength, content_type: 'application/pdf' });

    const page = await list(client, appId);
    expect(page.items).toEqual([file]);
    expect(JSON.stringify(page).includes(portalHost)).toBe(false);

    const got = await download(client, appId, file.id);
    expect(got.status).toBe(200);
    expect(got.bytes.byteLength).toBe(bytes.byteLength);
    expect(sha(got.bytes)).toBe(sha(bytes));
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-disposition')).toContain(encodeURIComponent(name));
    expect(got.headers.get('cache-control')).toBe('private, no-store');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');

    const audit = (await listAudit(await bffDb(), appId)).items;
    expect(audit[0]).toMatchObject({
      operation: 'files.upload',
      objectType: 'file_question',
      objectId: 'bank_statements/bank_statements/files',
      applicationId: appId,
      outcome: 'success',
      status: 201,
      upstreamRequestId: expect.stringMatching(/^req_/),
    });
  });

  it('takes several files per question (with Content-Length too), files of items, and replaces a single file', async () => {
    const appId = await newApp();
    const { client } = await signedIn('staff');
    const a = pdfBytes(200_000);
    const b = new TextEncoder().encode('date,amount\n2026-01-31,1200.50\n');
    const first = await mustUpload(client, appId, BANK, a, { filename: 'january.pdf' });
    const second = await mustUpload(client, appId, BANK, b, { filename: 'january.csv', contentType: 'text/csv' });
    const third = await mustUpload(client, appId, BANK, a, { filename: 'january.pdf' });
    expect(new Set([first.id, second.id, third.id]).size).toBe(3);
    expect(second).toMatchObject({ content_type: 'text/csv', size: b.byteLength });

    const bank = await list(client, appId, `?block_key=bank_statements&schema_key=bank_statements&field_key=files`);
    expect(bank.items.map((f) => f.id)).toEqual([first.id, second.id, third.id]);
    const paged = await list(client, appId, '?page_size=2');
    expect(paged.items).toHaveLength(2);
    expect(paged.next_cursor).not.toBeNull();
    const rest = await list(client, appId, `?page_size=2&cursor=${encodeURIComponent(paged.next_cursor!)}`);
    expect(rest.items.map((f) => f.id)).toEqual([third.id]);
    expect(sha((await download(client, appId, second.id)).bytes)).toBe(sha(b));

    // A single-file question keeps the newest file.
    await mustUpload(client, appId, ACCOUNTS, pdfBytes(1000), { filename: 'accounts-2024.pdf' });
    const newest = await mustUpload(client, appId, ACCOUNTS, pdfBytes(1000), { filename: 'accounts-2025.pdf' });
    expect((await list(client, appId, '?block_key=annual_accounts')).items).toEqual([newest]);

    // A repeatable question's file belongs to one item.
    const owner = ItemWriteResult.parse((await client.post(`/api/applications/${appId}/items/owners`, { body: {} })).body).item;
    const idDoc = await mustUpload(client, appId, { block_key: 'owners', schema_key: 'owner_id_document', field_key: 'files', item_id: owner.item_id }, pdfBytes(5000), {
      filename: 'passport.pdf',
    });
    expect(idDoc.item_id).toBe(owner.item_id);
    expect((await list(client, appId, `?item_id=${owner.item_id}`)).items).toEqual([idDoc]);

    // The Portal's own refusals pass through, naming the field.
    const notAFile = await upload(client, appId, { block_key: 'company_name', schema_key: 'company_name', field_key: 'value' }, pdfBytes(100));
    expect(notAFile.status).toBe(422);
    expect(errorOf(notAFile).details).toEqual([expect.objectContaining({ code: 'not_a_file_field', block_key: 'company_name' })]);
  });

  it('deletes a file', async () => {
    const appId = await newApp();
    const { client } = await signedIn('staff');
    const keep = await mustUpload(client, appId, BANK, pdfBytes(1000), { filename: 'keep.pdf' });
    const drop = await mustUpload(client, appId, BANK, pdfBytes(1000), { filename: 'drop.pdf' });
    const r = await client.delete(`${filesOf(appId)}/${drop.id}`);
    expect(r.status).toBe(200);
    expect(FileDeleteResult.parse(r.body)).toEqual({ id: drop.id, deleted: true });
    expect((await list(client, appId)).items.map((f: FileView) => f.id)).toEqual([keep.id]);
    expect((await portalFiles(appId)).map((f) => f.id)).toEqual([keep.id]);
    expect((await download(client, appId, drop.id)).status).toBe(404);
    expect((await client.delete(`${filesOf(appId)}/${drop.id}`)).status).toBe(404);
    expect((await client.delete(`${filesOf(appId)}/file_1`)).status).toBe(400);

    const audit = (await listAudit(await bffDb(), appId)).items;
    expect(audit.slice(0, 2)).toEqual([
      expect.objectContaining({ operation: 'files.delete', objectType: 'file', objectId: drop.id, outcome: 'failure', status: 404 }),
      expect.objectContaining({ operation: 'files.delete', objectId: drop.id, outcome: 'success', status: 200, upstreamRequestId: expect.stringMatching(/^req_/) }),
    ]);
  });
});

describe('files the BFF refuses', () => {
  it('refuses a file over the limit from its Content-Length, before anything reaches the Portal', async () => {
    const appId = await newApp();
    const { client } = await signedIn('staff');
    const r = await upload(client, appId, BANK, new Uint8Array(MAX_UPLOAD_BYTES + 1));
    expect(r.status).toBe(422);
    const error = errorOf(r);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toBe('The file is larger than the 25 MiB limit.');
    expect(error.details).toEqual([expect.objectContaining({ code: 'file_too_large', ...BANK })]);
    expect(await portalFiles(appId)).toEqual([]);
  });

  it('refuses a streamed file once it passes the limit, and keeps nothing of it', async () => {
    const appId = await newApp();
    const { client } = await signedIn('staff');
    const r = await upload(client, appId, BANK, streamOf(new Uint8Array(MAX_UPLOAD_BYTES + 1024 * 1024), 1024 * 1024));
    expect(r.status).toBe(422);
    expect(errorOf(r).details).toEqual([expect.objectContaining({ code: 'file_too_large' })]);
    expect(await portalFiles(appId)).toEqual([]);
    // The app still works for the next upload.
    expect((await mustUpload(client, appId, BANK, pdfBytes(1000))).size).toBe(1000);
  });

  it('refuses types it does not forward, unnamed and empty files, with a clear message', async () => {
    const appId = await newApp();
    const { client } = await signedIn('staff');
    const gif = await upload(client, appId, BANK, new Uint8Array([0x47, 0x49, 0x46, 0x38]), { contentType: 'image/gif', filename: 'cat.gif' });
    expect(gif.status).toBe(422);
    expect(errorOf(gif).message).toBe('Files of type image/gif are not accepted. Upload a PDF, PNG, JPEG, text, CSV, Word or Excel file.');
    expect(errorOf(gif).details).toEqual([expect.objectContaining({ code: 'unsupported_type', parameter: 'Content-Type', ...BANK })]);
    const untyped = await upload(client, appId, BANK, pdfBytes(10), { contentType: '' });
    expect(errorOf(untyped).details[0]?.code).toBe('unsupported_type');
    const unnamed = await upload(client, appId, BANK, pdfBytes(10), { filename: null });
    expect(unnamed.status).toBe(422);
    expect(errorOf(unnamed).details[0]?.code).toBe('missing_filename');
    // Content-Disposition names a file as well as X-Filename does.
    const disposed = await upload(client, appId, BANK, pdfBytes(10), { filename: null, headers: { 'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent('größe.pdf')}` } });
    expect(disposed.status).toBe(201);
    expect(FileUploadResult.parse(disposed.body).file.filename).toBe('größe.pdf');
    const empty = await upload(client, appId, BANK, new Uint8Array(0));
    expect(empty.status).toBe(422);
    expect(errorOf(empty).details[0]?.code).toBe('empty_file');
    const badQuery = await upload(client, appId, { block_key: 'bank_statements', schema_key: 'bank_statements' } as Target, pdfBytes(10));
    expect(badQuery.status).toBe(400);
    expect((await portalFiles(appId)).map((f) => f.filename)).toEqual(['größe.pdf']);
  });
});

describe('who may use files', () => {
  it('lets a reviewer list and download but not upload or delete', async () => {
    const appId = await newApp();
    const { client: staff } = await signedIn('staff');
    const bytes = pdfBytes(4096);
    const file = await mustUpload(staff, appId, BANK, bytes);
    const { client } = await signedIn('reviewer');
    expect((await list(client, appId)).items).toEqual([file]);
    const got = await download(client, appId, file.id);
    expect(got.status).toBe(200);
    expect(sha(got.bytes)).toBe(sha(bytes));
    for (const r of [await upload(client, appId, BANK, pdfBytes(10)), await client.delete(`${filesOf(appId)}/${file.id}`)]) {
      expect(r.status).toBe(403);
      expect(errorOf(r).code).toBe('forbidden');
    }
    expect((await portalFiles(appId)).map((f) => f.id)).toEqual([file.id]);
  });

  it('lets the invited client do everything on its application, and nothing on another', async () => {
    const appId = await newApp();
    const otherId = await newApp();
    const client = await clientSessionFor(appId);
    const bytes = pdfBytes(10_000);
    const mine = await mustUpload(client, appId, BANK, bytes, { filename: 'mine.pdf' });
    expect((await list(client, appId)).items).toEqual([mine]);
    expect(sha((await download(client, appId, mine.id)).bytes)).toBe(sha(bytes));
    expect((await client.delete(`${filesOf(appId)}/${mine.id}`)).status).toBe(200);
    expect((await listAudit(await bffDb(), appId)).items[0]).toMatchObject({ operation: 'files.delete', actorKind: 'invitation', outcome: 'success' });

    const { client: staff } = await signedIn('staff');
    const theirs = await mustUpload(staff, otherId, BANK, pdfBytes(1000), { filename: 'theirs.pdf' });
    for (const status of [
      (await client.get(filesOf(otherId))).status,
      (await download(client, otherId, theirs.id)).status,
      (await upload(client, otherId, BANK, pdfBytes(10))).status,
      (await client.delete(`${filesOf(otherId)}/${theirs.id}`)).status,
    ]) {
      expect(status).toBe(404);
    }
    // Its own application's path does not reach another application's file either.
    expect((await download(client, appId, theirs.id)).status).toBe(404);
    expect((await portalFiles(otherId)).map((f) => f.id)).toEqual([theirs.id]);
  });

  it('refuses anonymous callers and uploads without X-CSRF', async () => {
    const appId = await newApp();
    const { client: staff } = await signedIn('staff');
    const file = await mustUpload(staff, appId, BANK, pdfBytes(100));
    const anonymous = new BffClient();
    expect((await anonymous.get(filesOf(appId))).status).toBe(401);
    expect((await download(anonymous, appId, file.id)).status).toBe(401);
    expect((await upload(anonymous, appId, BANK, pdfBytes(10))).status).toBe(401);
    const noCsrf = await upload(staff, appId, BANK, pdfBytes(10), { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(errorOf(noCsrf).code).toBe('csrf_failed');
    expect((await staff.delete(`${filesOf(appId)}/${file.id}`, { noCsrf: true })).status).toBe(403);
    expect((await portalFiles(appId)).map((f) => f.id)).toEqual([file.id]);
  });
});
