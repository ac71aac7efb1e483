import 'server-only';
import { ALLOWED_UPLOAD_TYPES, FILENAME_HEADER, MAX_UPLOAD_BYTES, type FileUploadQuery } from '@/lib/bff/files';
import type { ErrorDetail } from '@/lib/portal';
import { AppError } from '@/server/http/app-error';
import { cleanFilename } from '@/server/portal';

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

const ALLOWED = new Set<string>(ALLOWED_UPLOAD_TYPES);

const MIB = 1024 * 1024;
const sizeLabel = (bytes: number) => (bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`);

/** Every refusal names the file question, so the browser shows it next to the right field. */
const where = (at: FileUploadQuery): Omit<ErrorDetail, 'code' | 'message'> => ({
  block_key: at.block_key,
  schema_key: at.schema_key,
  field_key: at.field_key,
  ...(at.item_id ? { item_id: at.item_id } : {}),
});

/**
 * `midStream`: the body was cut off part-way, so the connection still holds bytes nobody will read; the
 * reply closes it rather than leave the browser to reuse a connection the server is dropping.
 */
export function fileTooLarge(at: FileUploadQuery, { max = MAX_UPLOAD_BYTES, midStream = false } = {}): AppError {
  return new AppError(
    'validation_failed',
    `The file is larger than the ${sizeLabel(max)} limit.`,
    [{ code: 'file_too_large', message: `Upload a file of at most ${max} bytes.`, parameter: 'Content-Length', ...where(at) }],
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
 * here spares the user an upload the Portal would refuse at the end.
 */
export function checkUploadRequest(req: Request, at: FileUploadQuery, max = MAX_UPLOAD_BYTES): UploadRequest {
  const contentType = (req.headers.get('content-type') ?? '').trim();
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  if (!ALLOWED.has(essence)) {
    throw new AppError('validation_failed', `Files of type ${essence || '(none)'} are not accepted. Upload a PDF, PNG, JPEG, text, CSV, Word or Excel file.`, [
      { code: 'unsupported_type', message: `Accepted: ${ALLOWED_UPLOAD_TYPES.join(', ')}.`, parameter: 'Content-Type', ...where(at) },
    ]);
  }

  const name = filenameOf(req);
  if (name === null || name.trim() === '') {
    throw new AppError('validation_failed', 'Name the file.', [
      { code: 'missing_filename', message: `Send the file name in ${FILENAME_HEADER} (percent-encoded).`, parameter: FILENAME_HEADER, ...where(at) },
    ]);
  }

  const declared = req.headers.get('content-length');
  let size: number | undefined;
  if (declared !== null) {
    if (!/^\d{1,15}$/.test(declared.trim())) throw new AppError('invalid_request', 'Content-Length is not a number of bytes.');
    size = Number(declared.trim());
    if (size > max) throw fileTooLarge(at, { max });
  }
  const body = req.body;
  if (size === 0 || body === null) {
    throw new AppError('validation_failed', 'The file is empty.', [{ code: 'empty_file', message: 'Choose a file with content.', ...where(at) }]);
  }
  return { contentType, filename: cleanFilename(name), size, body };
}

/**
 * A pass-through that fails the stream once more than `max` bytes went by: a chunked body (no
 * Content-Length) is held to the same limit while it streams, without ever being buffered.
 */
export function byteLimit(max = MAX_UPLOAD_BYTES) {
  let seen = 0;
  let exceeded = false;
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max) {
        exceeded = true;
        controller.error(new RangeError(`more than ${max} bytes`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
  return { stream, exceeded: () => exceeded };
}
