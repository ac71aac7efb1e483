import 'server-only';
import { isIdempotencyKey } from '@/server/portal';
import { AppError } from './app-error';

/** The If-Match a write must carry: the ETag from the browser's last read, passed upstream verbatim. */
export function requireIfMatch(req: Request): string {
  const v = req.headers.get('if-match');
  if (!v) {
    throw new AppError('precondition_required', 'Send If-Match with the ETag of your last read.', [
      { code: 'missing_header', message: 'If-Match is required.', parameter: 'If-Match' },
    ]);
  }
  return v;
}

/** The Idempotency-Key of a command, created in the browser where the user's action started. */
export function requireIdempotencyKey(req: Request): string {
  const v = req.headers.get('idempotency-key');
  if (!v || v.length > 255) {
    throw new AppError('precondition_required', 'Send an Idempotency-Key for this command.', [
      { code: 'missing_header', message: 'Idempotency-Key is required (at most 255 characters).', parameter: 'Idempotency-Key' },
    ]);
  }
  return v;
}

/** An optional Idempotency-Key (accept, dismiss): passed on when the browser sent one. */
export function optionalIdempotencyKey(req: Request): string | undefined {
  const v = req.headers.get('idempotency-key');
  if (v === null) return undefined;
  if (!isIdempotencyKey(v)) {
    throw new AppError('invalid_request', 'Idempotency-Key must be 1-255 visible ASCII characters.', [
      { code: 'invalid_header', message: 'Idempotency-Key is not valid.', parameter: 'Idempotency-Key' },
    ]);
  }
  return v;
}

/** The ETag header of a reply, when the Portal gave one. */
export const etagHeader = (etag: string | null | undefined): Record<string, string> => (etag ? { ETag: etag } : {});
