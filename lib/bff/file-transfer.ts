import { UPLOAD_CONTENT_TYPES, UPLOAD_MAX_BYTES } from '@/lib/portal/limits';

/**
 * How the browser sends a file to the BFF. A module of its own, without zod, because every form page's upload
 * code needs these and nothing of the schemas in files.ts.
 */

/** The largest file the BFF streams to the Portal; the browser checks it first to spare the user the wait. */
export const MAX_UPLOAD_BYTES = UPLOAD_MAX_BYTES;

/** Media types the BFF forwards (also the picker's `accept`). */
export const ALLOWED_UPLOAD_TYPES = UPLOAD_CONTENT_TYPES;

/** The header the browser names the file in, percent-encoded (header values must be ASCII). */
export const FILENAME_HEADER = 'X-Filename';

/** The largest evidence file the BFF streams on (the browser checks it first). */
export const MAX_EVIDENCE_BYTES = 25 * 1024 * 1024;

/** Media types the BFF forwards as evidence; Autofill reads text, CSV and PDF, and says why it cannot read the others. */
export const EVIDENCE_UPLOAD_TYPES = [
  'text/plain',
  'text/csv',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;
