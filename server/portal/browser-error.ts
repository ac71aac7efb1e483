import 'server-only';
import { listedCodeFor, type ErrorCode } from '@/lib/error-codes';
import type { ErrorDetail } from '@/lib/portal';
import { PortalError } from './errors';

/** The browser-facing error body of DESIGN.md §3. */
export interface BrowserErrorBody {
  error: { code: ErrorCode; message: string; request_id: string | null; details: ErrorDetail[] };
}

export interface BrowserError {
  status: number;
  body: BrowserErrorBody;
  /** Retry-After for a surfaced 429. */
  headers: Record<string, string>;
}

/** The browser never sees a Portal URL (DESIGN.md §1), not even inside a message. */
const scrubUrls = (text: string) => text.replace(/\bhttps?:\/\/[^\s"'<>)]+/gi, '[url]');

/**
 * Maps anything a route handler caught onto the browser's error reply. Upstream statuses pass through, except
 * where they would mislead the browser: a 401 from the Portal is about our API key, not the user's session,
 * and a Portal 5xx is a bad gateway from the browser's point of view.
 */
export function toBrowserError(e: unknown): BrowserError {
  if (!(e instanceof PortalError)) {
    return {
      status: 500,
      headers: {},
      body: { error: { code: 'internal_error', message: 'Something went wrong on our side.', request_id: null, details: [] } },
    };
  }
  let status = e.status;
  // A code outside lib/error-codes (a newer Portal's) reaches the browser as the listed code of its status.
  let code = listedCodeFor(String(e.code), e.status);
  let message = scrubUrls(e.message);
  if (e.fromUpstream && e.status === 401) {
    status = 502;
    code = 'portal_unauthenticated';
    message = 'The app could not authenticate to the Portal. Please tell the administrator.';
  } else if (e.fromUpstream && e.status >= 500) {
    status = 502;
  }
  const details = e.details.map((d) => ({ ...d, message: scrubUrls(d.message) }));
  const headers: Record<string, string> = {};
  if (status === 429 && e.retryAfter !== undefined) headers['Retry-After'] = String(e.retryAfter);
  return { status, headers, body: { error: { code, message, request_id: e.requestId, details } } };
}
