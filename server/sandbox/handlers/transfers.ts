import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BusinessFileUploadResult } from '@/lib/portal';
import type { Reply } from '../http/context';
import { SandboxError, notFound } from '../http/errors';
import { readUploadBody, sameSecret } from '../http/upload-body';
import { ALLOWED_UPLOAD_TYPES } from '../options';
import type { Sandbox } from '../sandbox';
import { newId, nextSeq } from '../store/ids';
import { handleEvidenceTransfer, isEvidenceUpload } from '../autofill/evidence';
import { answersChanged } from './answers';
import { assertOpen } from './application-kinds';
import { downloadToken, maxFiles } from './uploads';


/** The file's name from Content-Disposition (RFC 6266: filename* wins over filename). */
export function filenameFrom(header: string | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      return null;
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/.exec(header);
  if (!plain) return null;
  return (plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1]!).trim();
}

type FileAt = { block_key: string; schema_key: string; field_key: string; item_id?: string };

// PUT /transfers/{upload_id}?token=… – the bytes of one file, authorised by the signed URL alone
export async function handleTransfer(sb: Sandbox, req: IncomingMessage, url: URL): Promise<Reply> {
  if (req.method !== 'PUT') throw new SandboxError('not_found', 'Transfers take PUT.');
  const id = url.pathname.split('/')[2] ?? '';
  // Autofill evidence files arrive through the same kind of signed URL (autofill/evidence.ts).
  if (isEvidenceUpload(sb, id)) return handleEvidenceTransfer(sb, req, url);
  const upload = sb.state.uploads[id];
  const token = url.searchParams.get('token') ?? '';
  if (!upload || !sameSecret(upload.token, token)) {
    throw new SandboxError('forbidden', 'The upload URL is not valid.', [{ code: 'invalid_upload_url', message: 'Request new upload credentials.' }]);
  }
  if (Date.parse(upload.expires_at) < Date.now()) {
    throw new SandboxError('forbidden', 'The upload URL has expired.', [{ code: 'upload_url_expired', message: 'Request new upload credentials.' }]);
  }
  const app = sb.application(upload.application_id);
  assertOpen(app);
  const info = sb.index(app).byKey.get(`${upload.block_key}|${upload.schema_key}|${upload.field_key}`);
  if (!info) throw notFound('file question');
  if (upload.item_id && !app.items[upload.item_id]) throw notFound('repeatable item');
  // Every refusal names the file question, so a client can show it next to the right field.
  const at: FileAt = {
    block_key: upload.block_key,
    schema_key: upload.schema_key,
    field_key: upload.field_key,
    ...(upload.item_id ? { item_id: upload.item_id } : {}),
  };
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!ALLOWED_UPLOAD_TYPES.has(contentType)) {
    throw new SandboxError('validation_failed', `Files of type ${contentType || '(none)'} are not accepted.`, [
      { code: 'unsupported_type', message: `Accepted: ${[...ALLOWED_UPLOAD_TYPES].join(', ')}.`, parameter: 'Content-Type', ...at },
    ]);
  }
  const filename = filenameFrom(req.headers['content-disposition']);
  if (!filename) {
    throw new SandboxError('validation_failed', 'Name the file in Content-Disposition.', [
      { code: 'missing_filename', message: 'Send Content-Disposition: attachment; filename="…".', parameter: 'Content-Disposition', ...at },
    ]);
  }
  const bytes = await readUploadBody(req, sb.options.maxUploadBytes, at);
  if (bytes.length === 0) {
    throw new SandboxError('validation_failed', 'The file is empty.', [{ code: 'empty_file', message: 'Choose a file with content.', ...at }]);
  }
  const existing = Object.values(app.files).filter(
    (f) => f.block_key === upload.block_key && f.schema_key === upload.schema_key && f.field_key === upload.field_key && f.item_id === upload.item_id,
  );
  if (!upload.multiple) {
    for (const f of existing) delete app.files[f.id]; // a single-file question keeps the newest file
  } else if (existing.length >= maxFiles(info)) {
    throw new SandboxError('validation_failed', `At most ${maxFiles(info)} files can be attached here.`, [
      { code: 'too_many_files', message: 'Remove a file first.', ...at },
    ]);
  }
  const fileId = newId(sb.state, 'answerFile');
  app.files[fileId] = {
    id: fileId,
    seq: nextSeq(sb.state),
    block_key: upload.block_key,
    schema_key: upload.schema_key,
    field_key: upload.field_key,
    item_id: upload.item_id,
    filename: filename.slice(0, 255),
    content_type: contentType,
    size: bytes.length,
    created_at: sb.now(),
    content_base64: bytes.toString('base64'),
  };
  answersChanged(sb, app);
  const all = Object.values(app.files);
  const body: BusinessFileUploadResult = {
    request_path: upload.request_path,
    filename: filename.slice(0, 255),
    size: bytes.length,
    application_file_count: all.length,
    application_file_bytes: all.reduce((n, f) => n + f.size, 0),
  };
  return { status: 201, body };
}

// GET /downloads/{file_id}?token=… – the bytes of an attached file
export function handleDownload(sb: Sandbox, req: IncomingMessage, res: ServerResponse, url: URL) {
  const id = url.pathname.split('/')[2] ?? '';
  const token = url.searchParams.get('token') ?? '';
  if (req.method !== 'GET' || !sameSecret(downloadToken(sb, id), token)) {
    throw new SandboxError('forbidden', 'The download URL is not valid.');
  }
  for (const app of Object.values(sb.state.applications)) {
    const f = app.files[id];
    if (!f) continue;
    res.statusCode = 200;
    res.setHeader('Content-Type', f.content_type);
    res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(f.filename)}`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(Buffer.from(f.content_base64, 'base64'));
    return;
  }
  throw notFound('file');
}

// GET /portal/invitations/{token} – the sandbox's stand-in for the Portal's own client invitation page
export function handleInvitationPage(sb: Sandbox, res: ServerResponse, url: URL) {
  const appId = url.searchParams.get('application') ?? '';
  const app = sb.state.applications[appId];
  const name = app ? (sb.state.businesses[app.business_id]?.name ?? 'your business') : 'your business';
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res.statusCode = app ? 200 : 404;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(
    `<!doctype html><html lang="en"><title>Portal invitation</title><h1>Portal invitation</h1><p>${
      app ? `This is the sandbox's stand-in for the Portal's invitation to complete the application of ${esc(name)}.` : 'This invitation does not exist.'
    }</p></html>`,
  );
}
