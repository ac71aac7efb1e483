import type { ErrorCode } from '@/lib/error-codes';
import type { ErrorDetail } from '@/lib/portal';

/** A refused /api call, as the browser code handles it: the BFF's error body plus the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly requestId: string | null = null,
    /** The rest of the body (a 412 carries `current`). */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

/** The BFF's message with the request id to quote, e.g. "The Portal is busy. (reference req_1)". */
export const referencedMessage = (e: ApiError): string => `${e.message}${e.requestId ? ` (reference ${e.requestId})` : ''}`;

/**
 * A refusal whose outcome is unknown: the request may have reached the Portal (no reply, rate limited, a
 * server error), so a retry of the same write must reuse its Idempotency-Key.
 */
export const outcomeUnknown = (e: unknown): boolean => e instanceof ApiError && (e.status === 0 || e.status === 429 || e.status >= 500);

/**
 * The object as it is now that a 412 reply carries (`current`), as the caller's type (the BFF built it from
 * the Portal's parsed reply); null for any other error, or a 412 without an object in `current`.
 */
export function conflictCurrent<T extends object>(e: unknown): T | null {
  if (!(e instanceof ApiError) || e.status !== 412) return null;
  const current = (e.body as { current?: unknown } | null)?.current;
  return typeof current === 'object' && current !== null ? (current as T) : null;
}
