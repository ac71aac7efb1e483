import 'server-only';
import type { ErrorDetail, PortalErrorCode } from '@/lib/portal';

/** Failures that happen on our side of the wire, with the status the BFF reports for them. */
export const LOCAL_ERROR_STATUS = {
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
} as const;
export type LocalErrorCode = keyof typeof LOCAL_ERROR_STATUS;

/** Upstream codes (DESIGN.md §5), local ones, or any code a newer Portal may send. */
export type PortalErrorCodeLike = PortalErrorCode | LocalErrorCode | (string & {});

export interface PortalErrorInit {
  status: number;
  code: PortalErrorCodeLike;
  message: string;
  details?: readonly ErrorDetail[];
  /** The upstream Request-Id header (null when no reply arrived). */
  requestId?: string | null;
  /** Origin and path only: query strings may carry credentials (signed transfer URLs). */
  url?: string | null;
  method?: string | null;
  /** Seconds, from Retry-After, when the Portal gave one. */
  retryAfter?: number;
  /** True when the status and code come from a Portal reply rather than from this client. */
  fromUpstream?: boolean;
}

/** The only error the Portal client throws. Safe to log and to serialise: it never holds the key or a query string. */
export class PortalError extends Error {
  override readonly name = 'PortalError';
  readonly status: number;
  readonly code: PortalErrorCodeLike;
  readonly details: readonly ErrorDetail[];
  readonly requestId: string | null;
  readonly url: string | null;
  readonly method: string | null;
  readonly retryAfter: number | undefined;
  readonly fromUpstream: boolean;

  constructor(init: PortalErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.requestId = init.requestId ?? null;
    this.url = init.url ?? null;
    this.method = init.method ?? null;
    this.retryAfter = init.retryAfter;
    this.fromUpstream = init.fromUpstream ?? false;
  }

  static local(code: LocalErrorCode, message: string, extra: Omit<PortalErrorInit, 'status' | 'code' | 'message'> = {}) {
    return new PortalError({ ...extra, status: LOCAL_ERROR_STATUS[code], code, message });
  }

  toJSON() {
    return {
      name: this.name,
      status: this.status,
      code: this.code,
      message: this.message,
      details: this.details,
      request_id: this.requestId,
      url: this.url,
      method: this.method,
      ...(this.retryAfter !== undefined ? { retry_after: this.retryAfter } : {}),
      from_upstream: this.fromUpstream,
    };
  }
}

export const isPortalError = (e: unknown): e is PortalError => e instanceof PortalError;

/** Origin and path of a URL: what errors and logs may show of it. */
export const publicUrlOf = (url: URL): string => `${url.origin}${url.pathname}`;
