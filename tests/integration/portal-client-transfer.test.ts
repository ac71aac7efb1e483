import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnswerFilePage, ApplicationContract, ApplicationEnvelope, BusinessCreateResult, BusinessFileUploadResult } from '@/lib/portal';
import { newIdempotencyKey, portalDownload, portalRequest, portalTransfer, routes, safeDownloadHeaders } from '@/server/portal';
import type { RunningSandbox } from '@/server/sandbox/server';
import { loopbackServer } from './support/loopback';
import { portalCapture } from './support/portal-capture';

const SENTINEL = 'SENTINEL-transfer-key-1a2b3c4d5e6f';
const SESSION_SECRET = 'portal-transfer-test-session-secret-0123456789';
const FIVE_MB = 5 * 1024 * 1024;
const CHUNK = 64 * 1024;

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bytes: number;
  sha256: string;
}
type Reply = (req: IncomingMessage, res: ServerResponse, got: Received) => void;

/** A loopback server that counts (never keeps) what it is sent, and tells when the first bytes arrive. */
async function receiver() {
  const received: Received[] = [];
  const state = {
    reply: ((_req, res, got) => uploadReply(res, got)) as Reply,
    onFirstBytes: () => {},
  };
  const server = await loopbackServer((req, res) => {
    const hash = createHash('sha256');
    let bytes = 0;
    req.on('data', (c: Buffer) => {
      if (bytes === 0) state.onFirstBytes();
      bytes += c.length;
      hash.update(c);
    });
    req.on('end', () => {
      const got = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes, sha256: hash.digest('hex') };
      received.push(got);
      state.reply(req, res, got);
    });
  });
  return { ...server, received, state };
}

function uploadReply(res: ServerResponse, got: Received) {
  res.writeHead(201, { 'Content-Type': 'application/json', 'Request-Id': 'req_transfer' });
  res.end(JSON.stringify({ request_path: 'documents/statements', filename: 'x', size: got.bytes, application_file_count: 1, application_file_bytes: got.bytes }));
}

const capture = portalCapture(SENTINEL, SESSION_SECRET);
const { lines, errors, failure, configure } = capture;

/** Deterministic bytes, so both ends can compare hashes without keeping 5 MB around. */
const chunkAt = (i: number) => Buffer.alloc(CHUNK, i % 251);
const expectedHash = (() => {
  const h = createHash('sha256');
  for (let i = 0; i < FIVE_MB / CHUNK; i++) h.update(chunkAt(i));
  return h.digest('hex');
})();

let sandbox: RunningSandbox;
let storage: Awaited<ReturnType<typeof receiver>>;
let foreign: Awaited<ReturnType<typeof receiver>>;

beforeAll(async () => {
  sandbox = await capture.start('Sentinel');
  storage = await receiver();
  foreign = await receiver();
});

afterAll(() => Promise.all([capture.stop(), storage?.close(), foreign?.close()]));

describe('portalTransfer against a scripted upload endpoint', () => {
  beforeEach(() => {
    // The upload URL is UNDER the Portal base URL here: the key must still stay home.
    configure(storage.baseUrl);
    storage.received.length = 0;
    foreign.received.length = 0;
    storage.state.reply = (_req, res, got) => uploadReply(res, got);
    storage.state.onFirstBytes = () => {};
  });

  it('streams a 5 MB web stream without the Authorization header (the receiver sees bytes before the last chunk exists)', async () => {
    let firstBytes!: () => void;
    const arrived = new Promise<void>((resolve) => (firstBytes = resolve));
    storage.state.onFirstBytes = () => firstBytes();
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (i === FIVE_MB / CHUNK - 1) {
          // A client that buffered the whole body would never send anything, and this would time out.
          await Promise.race([arrived, new Promise((_, reject) => setTimeout(() => reject(new Error('body was buffered, not streamed')), 5000))]);
        }
        if (i === FIVE_MB / CHUNK) return controller.close();
        controller.enqueue(chunkAt(i++));
      },
    });
    const res = await portalTransfer({
      uploadUrl: `${storage.baseUrl}uploads/upl_1?token=signed-credential`,
      body,
      contentType: 'application/pdf',
      filename: 'relevé de compte.pdf',
      schema: BusinessFileUploadResult,
    });
    expect(res).toMatchObject({ status: 201, requestId: 'req_transfer', data: { size: FIVE_MB } });
    const [got] = storage.received;
    expect(got).toMatchObject({ method: 'PUT', url: '/v1/uploads/upl_1?token=signed-credential', bytes: FIVE_MB, sha256: expectedHash });
    expect(got!.headers.authorization).toBeUndefined();
    expect(got!.headers.cookie).toBeUndefined();
    expect(JSON.stringify(got!.headers)).not.toContain(SENTINEL);
    expect(got!.headers['content-type']).toBe('application/pdf');
    expect(got!.headers['content-disposition']).toBe(`attachment; filename="relev_ de compte.pdf"; filename*=UTF-8''relev%C3%A9%20de%20compte.pdf`);
  });

  it('streams a Node Readable with a known size as Content-Length', async () => {
    const body = Readable.from((function* () {
      for (let i = 0; i < FIVE_MB / CHUNK; i++) yield chunkAt(i);
    })());
    const res = await portalTransfer({ uploadUrl: `${storage.origin}/transfers/upl_2?token=t`, body, size: FIVE_MB, contentType: 'text/csv; charset=utf-8', filename: 'a.csv', schema: BusinessFileUploadResult });
    expect(res.data.size).toBe(FIVE_MB);
    const [got] = storage.received;
    expect(got).toMatchObject({ bytes: FIVE_MB, sha256: expectedHash });
    expect(got!.headers['content-length']).toBe(String(FIVE_MB));
    expect(got!.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(got!.headers.authorization).toBeUndefined();
  });

  it('sends a Buffer as it is', async () => {
    await portalTransfer({ uploadUrl: `${storage.origin}/transfers/upl_3?token=t`, body: Buffer.from('hello'), contentType: 'text/plain', filename: 'a.txt', schema: BusinessFileUploadResult });
    expect(storage.received[0]).toMatchObject({ bytes: 5 });
    expect(storage.received[0]!.headers.authorization).toBeUndefined();
  });

  it('maps an error reply to PortalError, without the URL’s token', async () => {
    storage.state.reply = (_req, res) => {
      res.writeHead(422, { 'Content-Type': 'application/json', 'Request-Id': 'req_422' });
      res.end(JSON.stringify({ error: { code: 'validation_failed', message: 'Too large.', request_id: 'req_422', details: [{ code: 'file_too_large', message: 'At most 1 byte.', block_key: 'b', schema_key: 's', field_key: 'f' }] } }));
    };
    const e = await failure(portalTransfer({ uploadUrl: `${storage.origin}/transfers/upl_4?token=secret-token-value`, body: Buffer.from('xy'), contentType: 'text/plain', filename: 'a.txt', schema: BusinessFileUploadResult }));
    expect(e).toMatchObject({ status: 422, code: 'validation_failed', requestId: 'req_422', url: `${storage.origin}/transfers/upl_4`, method: 'PUT' });
    expect(e.details[0]).toMatchObject({ code: 'file_too_large', field_key: 'f' });
    expect(JSON.stringify(e)).not.toContain('secret-token-value');
    expect(lines.join('\n')).not.toContain('secret-token-value');
  });

  it('refuses a reply that does not match the schema', async () => {
    storage.state.reply = (_req, res) => {
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end('{"ok":true}');
    };
    const e = await failure(portalTransfer({ uploadUrl: `${storage.origin}/transfers/upl_5?token=t`, body: Buffer.from('x'), contentType: 'text/plain', filename: 'a.txt', schema: BusinessFileUploadResult }));
    expect(e).toMatchObject({ status: 502, code: 'bad_upstream_reply' });
  });

  it('does not follow a redirect', async () => {
    storage.state.reply = (_req, res) => {
      res.writeHead(307, { Location: `${foreign.origin}/elsewhere` });
      res.end();
    };
    const e = await failure(portalTransfer({ uploadUrl: `${storage.origin}/transfers/upl_6?token=t`, body: Buffer.from('x'), contentType: 'text/plain', filename: 'a.txt', schema: BusinessFileUploadResult }));
    expect(e.code).toBe('upstream_redirect');
    expect(foreign.received).toHaveLength(0);
  });

  it.each([
    ['not http(s)', 'ftp://127.0.0.1/upload'],
    ['user info', 'http://user:pw@127.0.0.1:1/upload'],
    ['not absolute', '/transfers/upl_1'],
  ])('refuses an upload URL with %s before any I/O', async (_label, uploadUrl) => {
    const e = await failure(portalTransfer({ uploadUrl, body: Buffer.from('x'), contentType: 'text/plain', filename: 'a.txt', schema: BusinessFileUploadResult }));
    expect(e.code).toBe('untrusted_url');
  });

  it('refuses a malformed Content-Type before any I/O', async () => {
    const e = await failure(portalTransfer({ uploadUrl: `${storage.origin}/transfers/upl_7`, body: Buffer.from('x'), contentType: 'text/plain\r\nX-Evil: 1', filename: 'a.txt', schema: BusinessFileUploadResult }));
    expect(e).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(storage.received).toHaveLength(0);
  });

  it('times out a transfer that gets no answer', async () => {
    storage.state.reply = () => {
      /* never answers */
    };
    const e = await failure(portalTransfer({ uploadUrl: `${storage.origin}/transfers/upl_8`, body: Buffer.from('x'), contentType: 'text/plain', filename: 'a.txt', schema: BusinessFileUploadResult, timeoutMs: 200 }));
    expect(e).toMatchObject({ status: 504, code: 'upstream_timeout' });
  });
});

describe('portalDownload against a scripted storage', () => {
  beforeEach(() => {
    configure(storage.baseUrl);
    storage.received.length = 0;
  });

  it('streams the body back without the Authorization header, and offers only safe headers to forward', async () => {
    storage.state.reply = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': '3', 'Set-Cookie': 'tracking=1', 'X-Internal': 'secret' });
      res.end('pdf');
    };
    const res = await portalDownload(`${storage.baseUrl}downloads/afile_1?token=t`);
    expect(await res.text()).toBe('pdf');
    expect(storage.received[0]!.headers.authorization).toBeUndefined();
    const headers = safeDownloadHeaders(res, 'statement.pdf');
    expect(Object.fromEntries(headers)).toEqual({
      'cache-control': 'private, no-store',
      'content-disposition': `attachment; filename="statement.pdf"; filename*=UTF-8''statement.pdf`,
      'content-length': '3',
      'content-type': 'application/pdf',
      'x-content-type-options': 'nosniff',
    });
  });

  it('never lets the storage host make the app render a page: an attachment, of an allowed type or octet-stream', async () => {
    // A compromised storage host answering a download with a page of its own, to be shown inline on the app's origin.
    for (const [type, expected] of [
      ['text/html; charset=utf-8', 'application/octet-stream'],
      ['image/svg+xml', 'application/octet-stream'],
      ['application/xhtml+xml', 'application/octet-stream'],
      ['TEXT/PLAIN; charset=utf-8', 'text/plain'],
    ] as const) {
      storage.state.reply = (_req, res) => {
        res.writeHead(200, { 'Content-Type': type, 'Content-Disposition': 'inline; filename="page.html"' });
        res.end('<script>alert(document.domain)</script>');
      };
      const res = await portalDownload(`${storage.baseUrl}downloads/afile_1?token=t`);
      await res.text();
      const headers = safeDownloadHeaders(res, 'notes.txt');
      expect(headers.get('content-type'), type).toBe(expected);
      expect(headers.get('content-disposition'), type).toBe(`attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    }
  });

  it('throws PortalError for an error reply', async () => {
    storage.state.reply = (_req, res) => {
      res.writeHead(403, { 'Content-Type': 'application/json', 'Request-Id': 'req_dl' });
      res.end(JSON.stringify({ error: { code: 'forbidden', message: 'The download URL is not valid.', request_id: 'req_dl', details: [] } }));
    };
    const e = await failure(portalDownload(`${storage.origin}/downloads/afile_1?token=bad`));
    expect(e).toMatchObject({ status: 403, code: 'forbidden', requestId: 'req_dl', url: `${storage.origin}/downloads/afile_1` });
  });
});

describe('a real upload and download through the sandbox', () => {
  beforeEach(() => {
    configure(sandbox.baseUrl);
  });

  it('creates a business, streams 5 MB to its upload_url, and reads the file back through its download link', async () => {
    const created = await portalRequest({
      method: 'POST',
      path: routes.businesses(),
      body: { name: 'Transfer Test Ltd' },
      idempotencyKey: newIdempotencyKey(),
      schema: BusinessCreateResult,
    });
    const upload = created.data.file_uploads[0];
    expect(upload).toBeDefined();
    const body = Readable.from((function* () {
      for (let i = 0; i < FIVE_MB / CHUNK; i++) yield chunkAt(i);
    })());
    const sent = await portalTransfer({ uploadUrl: upload!.upload_url, body, contentType: 'application/pdf', filename: 'bank statement €.pdf', schema: BusinessFileUploadResult });
    expect(sent.data).toMatchObject({ request_path: upload!.request_path, filename: 'bank statement €.pdf', size: FIVE_MB });

    const app = await portalRequest({ url: created.data.application.url, schema: ApplicationEnvelope });
    const contract = await portalRequest({ url: app.data.application.contract_url, schema: ApplicationContract });
    const files = await portalRequest({ url: contract.data.operations.files_url, schema: AnswerFilePage });
    const file = files.data.items.find((f) => f.filename === 'bank statement €.pdf');
    expect(file).toMatchObject({ size: FIVE_MB, content_type: 'application/pdf' });

    const download = await portalDownload(file!.url);
    const hash = createHash('sha256');
    let bytes = 0;
    const reader = download.body!.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      bytes += r.value.byteLength;
      hash.update(r.value);
    }
    expect(bytes).toBe(FIVE_MB);
    expect(hash.digest('hex')).toBe(expectedHash);
    expect(safeDownloadHeaders(download, file!.filename).get('content-disposition')).toContain("filename*=UTF-8''bank%20statement%20%E2%82%AC.pdf");
  });
});

describe('the API key stays secret in transfers', () => {
  it('never appears in a log line or a thrown error', () => {
    expect(lines.some((l) => l.includes('"kind":"transfer"'))).toBe(true);
    expect(lines.some((l) => l.includes('"kind":"download"'))).toBe(true);
    for (const line of lines) {
      expect(line).not.toContain(SENTINEL);
      expect(line).not.toMatch(/token=(?!\[redacted\])/);
    }
    for (const e of errors) {
      expect(JSON.stringify(e)).not.toContain(SENTINEL);
      expect(inspect(e, { depth: 10 })).not.toContain(SENTINEL);
    }
  });
});
