import type { ErrorDetail } from '@/lib/portal';

/** A refused /api call, as the browser code handles it: the BFF's error body plus the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly requestId: string | null = null,
    /** The rest of the body (a 412 carries `current`). */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}
