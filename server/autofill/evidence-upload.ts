import 'server-only';
import { EVIDENCE_UPLOAD_TYPES, MAX_EVIDENCE_BYTES } from '@/lib/bff/autofill';
import { FILENAME_HEADER } from '@/lib/bff/files';
import { AutofillPreparation, FileUploadCredential } from '@/lib/portal';
import type { IntakeLinks } from '@/server/application-kinds/intake';
import { byteLimit } from '@/server/applications/upload-request';
import { AppError } from '@/server/http/app-error';
import { cleanFilename, portalRequest, portalTransfer, urlBelow } from '@/server/portal';
import { readPreparation } from './preparation';

/** An evidence file as the browser sent it, checked before a single byte goes on. */
export interface EvidenceUpload {
  /** The browser's Content-Type, parameters included (a text file's charset matters to the reader). */
  contentType: string;
  filename: string;
  /** From Content-Length; undefined for a chunked body, which is counted while it streams. */
  size: number | undefined;
  body: ReadableStream<Uint8Array>;
}

const ALLOWED = new Set<string>(EVIDENCE_UPLOAD_TYPES);
const MIB = 1024 * 1024;

/** `midStream`: the connection still holds unread bytes, so the reply closes it. */
export function evidenceTooLarge(midStream = false): AppError {
  return new AppError(
    'validation_failed',
    `The file is larger than the ${MAX_EVIDENCE_BYTES / MIB} MiB limit.`,
    [{ code: 'file_too_large', message: `Upload a file of at most ${MAX_EVIDENCE_BYTES} bytes.`, parameter: 'Content-Length' }],
    midStream ? { Connection: 'close' } : {},
  );
}

/** X-Filename carries the name percent-encoded (header values are ASCII); a raw ASCII name is taken as it is. */
function filenameOf(req: Request): string | null {
  const named = req.headers.get(FILENAME_HEADER);
  if (!named) return null;
  try {
    return decodeURIComponent(named);
  } catch {
    return named;
  }
}

/** Checks an evidence upload's headers: a type we forward, a name, a declared size within the limit, a body. */
export function checkEvidenceUpload(req: Request): EvidenceUpload {
  const contentType = (req.headers.get('content-type') ?? '').trim();
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  if (!ALLOWED.has(essence)) {
    throw new AppError('validation_failed', `Files of type ${essence || '(none)'} are not accepted. Autofill reads text, CSV and PDF files.`, [
      { code: 'unsupported_type', message: `Accepted: ${EVIDENCE_UPLOAD_TYPES.join(', ')}.`, parameter: 'Content-Type' },
    ]);
  }
  const name = filenameOf(req);
  if (name === null || name.trim() === '') {
    throw new AppError('validation_failed', 'Name the file.', [
      { code: 'missing_filename', message: `Send the file name in ${FILENAME_HEADER} (percent-encoded).`, parameter: FILENAME_HEADER },
    ]);
  }
  const declared = req.headers.get('content-length');
  let size: number | undefined;
  if (declared !== null) {
    if (!/^\d{1,15}$/.test(declared.trim())) throw new AppError('invalid_request', 'Content-Length is not a number of bytes.');
    size = Number(declared.trim());
    if (size > MAX_EVIDENCE_BYTES) throw evidenceTooLarge();
  }
  if (size === 0 || req.body === null) {
    throw new AppError('validation_failed', 'The file is empty.', [{ code: 'empty_file', message: 'Choose a file with content.' }]);
  }
  return { contentType, filename: cleanFilename(name), size, body: req.body };
}

/**
 * Adds one evidence file: a credential from `files/` below the preparation, then the request body streamed
 * to its signed upload_url (held to the size limit as it flows). The transfer replies with the preparation
 * and the file it delivered; the preparation is then read again for its ETag, which the transfer reply lacks.
 */
export async function uploadEvidence(applicationId: string, links: IntakeLinks, upload: EvidenceUpload, signal: AbortSignal) {
  const credential = await portalRequest({
    method: 'POST',
    url: urlBelow(links.autofillPreparation, 'files'),
    schema: FileUploadCredential,
    body: {},
    signal,
  });
  const limit = byteLimit(MAX_EVIDENCE_BYTES);
  let transfer: Awaited<ReturnType<typeof portalTransfer<typeof AutofillPreparation>>>;
  try {
    transfer = await portalTransfer({
      uploadUrl: credential.data.upload_url,
      body: upload.body.pipeThrough(limit.stream),
      contentType: upload.contentType,
      filename: upload.filename,
      size: upload.size,
      schema: AutofillPreparation,
      signal,
    });
  } catch (e) {
    if (limit.exceeded()) throw evidenceTooLarge(true);
    throw e;
  }
  // The file is in: a failed re-read must not turn that into an error the user would answer with a second upload.
  const current = await readPreparation(applicationId, links, signal).catch(() => null);
  const delivered = transfer.data.uploaded_file ?? null;
  const now = delivered?.id ? current?.data.evidence_sources.find((s) => s.id === delivered.id) : undefined;
  return {
    preparation: current?.data ?? transfer.data,
    etag: current?.etag ?? null,
    uploadedFile: now ?? delivered,
    requestId: transfer.requestId,
  };
}
