import 'server-only';
import type { ErrorDetail } from '@/lib/portal';
import { UPSTREAM_FAILURE_STATUS, type PortalErrorCode, type UpstreamFailureCode } from '@/lib/error-codes';

/** Failures that happen on our side of the wire (their statuses: UPSTREAM_FAILURE_STATUS in lib/error-codes). */
export type LocalErrorCode = Exclude<UpstreamFailureCode, 'portal_unauthenticated'>;

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
    return new PortalError({ ...extra, status: UPSTREAM_FAILURE_STATUS[code], code, message });
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
