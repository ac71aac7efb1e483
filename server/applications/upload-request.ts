import 'server-only';
import type { z } from 'zod';
import { ALLOWED_UPLOAD_TYPES, FILENAME_HEADER, MAX_UPLOAD_BYTES, type FileUploadQuery } from '@/lib/bff/files';
import type { ErrorDetail } from '@/lib/portal';
import { AppError } from '@/server/http/app-error';
import { cleanFilename, portalTransfer } from '@/server/portal';

/** An upload as the browser sent it, checked before a single byte is sent on. */
export interface UploadRequest {
  /** The browser's Content-Type, parameters included (a text file's charset matters). */
  contentType: string;
  filename: string;
  /** From Content-Length; undefined for a chunked body, which is then counted while it streams. */
  size: number | undefined;
  /** The request body, unread: it is streamed on, never buffered. */
  body: ReadableStream<Uint8Array>;
}

/** What an upload may be, and where its refusals are shown. */
export interface UploadRules {
  types: readonly string[];
  max: number;
  /** Said after "Files of type … are not accepted." */
  typeHint: string;
  /** What every refusal's details also name (a file question, so the browser shows it next to the field). */
  where?: Omit<ErrorDetail, 'code' | 'message'>;
}

const MIB = 1024 * 1024;
const sizeLabel = (bytes: number) => (bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`);

/**
 * The rules of a document of an application: the BFF's types and limit. A new business's slot takes the
 * documents its application's file questions take, so both upload routes hold them to these.
 */
export const documentRules: UploadRules = {
  types: ALLOWED_UPLOAD_TYPES,
  max: MAX_UPLOAD_BYTES,
  typeHint: 'Upload a PDF, PNG, JPEG, text, CSV, Word or Excel file.',
};

/** The rules of an answer file: the documents' rules, refusals shown at the file question. */
export const fileQuestionRules = (at: FileUploadQuery): UploadRules => ({
  ...documentRules,
  where: { block_key: at.block_key, schema_key: at.schema_key, field_key: at.field_key, ...(at.item_id ? { item_id: at.item_id } : {}) },
});

/**
 * `midStream`: the body was cut off part-way, so the connection still holds bytes nobody will read; the
 * reply closes it rather than leave the browser to reuse a connection the server is dropping.
 */
function tooLarge(rules: UploadRules, midStream = false): AppError {
  return new AppError(
    'validation_failed',
    `The file is larger than the ${sizeLabel(rules.max)} limit.`,
    [{ code: 'file_too_large', message: `Upload a file of at most ${rules.max} bytes.`, parameter: 'Content-Length', ...rules.where }],
    midStream ? { Connection: 'close' } : {},
  );
}

/** RFC 6266: filename* (UTF-8, percent-encoded) wins over filename. */
function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      return null;
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header);
  if (!plain) return null;
  return (plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1]!).trim();
}

/** X-Filename carries the name percent-encoded (header values are ASCII); a raw ASCII name is taken as it is. */
function filenameOf(req: Request): string | null {
  const named = req.headers.get(FILENAME_HEADER);
  if (named) {
    try {
      return decodeURIComponent(named);
    } catch {
      return named;
    }
  }
  return filenameFromDisposition(req.headers.get('content-disposition'));
}

/**
 * Checks an upload's headers: a type we forward, a name, and a declared size within the limit. Refusing
 * here spares the user an upload the Portal would refuse at the end. Every upload route checks with this
 * (and streams with streamUpload), so no route forwards what another refuses. `named`: the file's name
 * when the route takes it elsewhere than X-Filename (a query parameter).
 */
export function checkUploadRequest(req: Request, rules: UploadRules, named?: string): UploadRequest {
  const { where } = rules;
  const contentType = (req.headers.get('content-type') ?? '').trim();
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  if (!rules.types.includes(essence)) {
    throw new AppError('validation_failed', `Files of type ${essence || '(none)'} are not accepted. ${rules.typeHint}`, [
      { code: 'unsupported_type', message: `Accepted: ${rules.types.join(', ')}.`, parameter: 'Content-Type', ...where },
    ]);
  }

  const name = named ?? filenameOf(req);
  if (name === null || name.trim() === '') {
    throw new AppError('validation_failed', 'Name the file.', [
      { code: 'missing_filename', message: `Send the file name in ${FILENAME_HEADER} (percent-encoded).`, parameter: FILENAME_HEADER, ...where },
    ]);
  }

  const declared = req.headers.get('content-length');
  let size: number | undefined;
  if (declared !== null) {
    if (!/^\d{1,15}$/.test(declared.trim())) throw new AppError('invalid_request', 'Content-Length is not a number of bytes.');
    size = Number(declared.trim());
    if (size > rules.max) throw tooLarge(rules);
  }
  const body = req.body;
  if (size === 0 || body === null) {
    throw new AppError('validation_failed', 'The file is empty.', [{ code: 'empty_file', message: 'Choose a file with content.', ...where }]);
  }
  return { contentType, filename: cleanFilename(name), size, body };
}

/**
 * Streams a checked upload to a signed upload_url, never buffered whole: a chunked body (no Content-Length)
 * is held to the rules' limit as it flows, and a transfer cut off for being too large says so rather than
 * that the Portal could not be reached.
 */
export async function streamUpload<S extends z.ZodType>(
  uploadUrl: string,
  upload: UploadRequest,
  rules: UploadRules,
  schema: S,
  /** Counts the bytes sent on (a chunked body's size is known only once it has gone). */
  sent: { bytes: number } = { bytes: 0 },
) {
  const limit = byteLimit(rules.max, sent);
  try {
    return await portalTransfer({
      uploadUrl,
      body: upload.body.pipeThrough(limit.stream),
      contentType: upload.contentType,
      filename: upload.filename,
      size: upload.size,
      schema,
    });
  } catch (e) {
    if (limit.exceeded()) throw tooLarge(rules, true);
    throw e;
  }
}

/** A pass-through that fails the stream once more than `max` bytes went by. */
function byteLimit(max: number, sent: { bytes: number }) {
  let exceeded = false;
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      sent.bytes += chunk.byteLength;
      if (sent.bytes > max) {
        exceeded = true;
        controller.error(new RangeError(`more than ${max} bytes`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
  return { stream, exceeded: () => exceeded };
}
