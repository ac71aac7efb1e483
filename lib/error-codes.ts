/**
 * Every error code a browser can receive in the BFF's error body (`{ error: { code, ... } }`), with the HTTP
 * status it comes with, in one list. Plain data (no zod): the browser's code switches on these names, so a
 * code renamed or dropped here fails to type-check wherever it is handled.
 */

/** The Portal's codes (DESIGN.md §5); the BFF passes them through with the Portal's status. */
export const PORTAL_ERROR_STATUS = {
  invalid_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  precondition_required: 428,
  validation_failed: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
} as const;

/** The BFF's own refusals, each with when it happens and what the browser does. */
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
  /** The object's state rules the action out (mailing a revoked invitation again): say why; not retryable as is. */
  conflict: 409,
  /** The body is well-formed JSON but fails its schema: show `details` next to the fields. */
  validation_failed: 422,
  /** A write needs If-Match / an Idempotency-Key and has none: a client bug; send it. */
  precondition_required: 428,
  /** Too many attempts (sign-in throttling): wait `Retry-After` seconds. */
  too_many_attempts: 429,
  /** An action with a pace limit (send a reminder now) was used moments ago: wait `Retry-After` seconds. */
  too_soon: 429,
  /** This session or address holds as many live-update streams as it may: close one, or retry after `Retry-After`. */
  too_many_streams: 429,
  /** Anything unexpected on our side: show a generic error with the request id; may be retried. */
  internal_error: 500,
  /** The request line and headers together are over 16 KiB (Node's limit): send fewer or shorter headers (often too many cookies). */
  request_head_too_large: 431,
  /** This instance is stopping (SIGTERM): nothing was done; repeat the request after `Retry-After` (another instance, or this one restarted, answers). */
  draining: 503,
  /** Webhooks cannot be received: WEBHOOK_SECRET is not configured (or not valid). */
  webhooks_disabled: 503,
} as const;

/** Failures of the BFF's Portal client on our side of the wire. */
export const UPSTREAM_FAILURE_STATUS = {
  /** A URL from a reply is not one we may send the key to. */
  untrusted_url: 502,
  /** The reply did not match the lib/portal schema (or was not JSON, or was too large). */
  bad_upstream_reply: 502,
  /** Redirects are never followed (they could carry the key elsewhere). */
  upstream_redirect: 502,
  upstream_unreachable: 502,
  upstream_timeout: 504,
  /** The caller's signal aborted (e.g. the browser went away). 499 as nginx uses it: nobody reads this reply. */
  request_aborted: 499,
  /** The call itself was malformed (bad ETag, id or header value): a bug or bad input, caught before any I/O. */
  invalid_request: 400,
  /** The Portal refused our API key (its 401): the browser's session is fine, the app's configuration is not. */
  portal_unauthenticated: 502,
} as const;

/** What the browser's own fetch concludes when no BFF error body arrived (status 0: no reply at all). */
export const BROWSER_ERROR_STATUS = {
  network_error: 0,
  /** A reply that is not the BFF's JSON (a proxy's HTML page, a body that is not JSON). */
  unexpected_reply: 0,
} as const;

export const ERROR_CODE_STATUS = { ...PORTAL_ERROR_STATUS, ...APP_ERROR_STATUS, ...UPSTREAM_FAILURE_STATUS, ...BROWSER_ERROR_STATUS };

export type PortalErrorCode = keyof typeof PORTAL_ERROR_STATUS;
export type AppErrorCode = keyof typeof APP_ERROR_STATUS;
export type UpstreamFailureCode = keyof typeof UPSTREAM_FAILURE_STATUS;
/** Any code a browser can receive. */
export type ErrorCode = keyof typeof ERROR_CODE_STATUS;

export const ERROR_CODES = Object.keys(ERROR_CODE_STATUS) as [ErrorCode, ...ErrorCode[]];

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CODE_STATUS, code);

/**
 * The code a browser receives for a Portal code outside the list (a newer Portal's): the listed Portal code of
 * the same status, or the generic one of its class, so the browser's switch stays exhaustive; the message stays.
 */
export function listedCodeFor(code: string, status: number): ErrorCode {
  if (isErrorCode(code)) return code;
  const same = (Object.keys(PORTAL_ERROR_STATUS) as PortalErrorCode[]).find((c) => PORTAL_ERROR_STATUS[c] === status);
  return same ?? (status >= 500 ? 'internal_error' : 'invalid_request');
}
