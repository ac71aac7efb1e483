import 'server-only';
import { codedError } from '@/lib/coded-error';

/**
 * The BFF's own error codes, each with its HTTP status, when it happens, and what the browser does.
 * Upstream (Portal) errors are mapped by toBrowserError in server/portal; these are the BFF's.
 */
export const APP_ERROR_STATUS = {
  /** Malformed input (bad JSON, a bad query parameter or path id): fix the request; not retryable. */
  invalid_request: 400,
  /** A webhook delivery's timestamp is malformed or outside the tolerance (too old, or in the future). */
  webhook_timestamp_invalid: 400,
  /** No valid session (signed out, expired, revoked, user disabled): send the person to sign in. */
  unauthenticated: 401,
  /** A webhook delivery's signature matches none made with our secret: forged, or signed with another secret. */
  webhook_signature_invalid: 401,
  /** The non-GET request lacks `X-CSRF: 1` or comes from another origin: a bug or an attack; never retry. */
  csrf_failed: 403,
  /** The session's role may not do this: hide the action; not retryable. */
  forbidden: 403,
  /** The object does not exist or is not this session's to see (clients see only their application). */
  not_found: 404,
  /** The body is well-formed JSON but fails its schema: show `details` next to the fields. */
  validation_failed: 422,
  /** A write needs If-Match / an Idempotency-Key and has none: a client bug; send it. */
  precondition_required: 428,
  /** Too many attempts (sign-in throttling): wait `Retry-After` seconds. */
  too_many_attempts: 429,
  /** This session or address holds as many live-update streams as it may: close one, or retry after `Retry-After`. */
  too_many_streams: 429,
  /** Anything unexpected on our side: show a generic error with the request id; may be retried. */
  internal_error: 500,
  /** Webhooks cannot be received: WEBHOOK_SECRET is not configured (or not valid). */
  webhooks_disabled: 503,
} as const;
export type AppErrorCode = keyof typeof APP_ERROR_STATUS;

export class AppError extends codedError(APP_ERROR_STATUS) {}
