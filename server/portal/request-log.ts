import 'server-only';
import { noteUpstreamReply } from '@/server/context/request-context';
import { log } from '@/server/log/logger';
import { recordPortalCall } from '@/server/ops/metrics';
import { spanEvent } from '@/server/ops/tracing';

export interface PortalCallRecord {
  method: string;
  /** Path only: query strings may carry credentials and personal data. */
  path: string;
  /** Null when no reply arrived (network error, timeout). */
  status: number | null;
  ms: number;
  requestId: string | null;
  attempt: number;
  /** Error code when the attempt failed. */
  code?: string;
  /** Set when another attempt follows. */
  retryInMs?: number;
  kind?: 'api' | 'transfer' | 'download';
  /** Made by background work, not on behalf of a request. */
  background?: boolean;
}

/**
 * One line per attempt. Never headers, never bodies. Also where the current request learns the upstream
 * Request-Id its reply and audit name (not from background work, which answers nobody).
 */
export function logPortalCall(r: PortalCallRecord): void {
  if (!r.background) noteUpstreamReply(r.method, r.requestId);
  recordPortalCall(r.path, r.method, r.status, r.ms, r.attempt);
  // A failed attempt that another follows is an event of the call's span (the span is the whole call).
  if (r.retryInMs !== undefined) spanEvent('portal.retry', { attempt: r.attempt, 'http.response.status_code': r.status ?? 0, 'error.type': r.code ?? 'unknown', retry_in_ms: Math.round(r.retryInMs) });
  const troubled = r.status === null || r.status === 429 || r.status >= 500;
  (troubled ? log.warn : log.info)('portal request', {
    kind: r.kind ?? 'api',
    method: r.method,
    path: r.path,
    status: r.status,
    ms: Math.round(r.ms),
    request_id: r.requestId,
    attempt: r.attempt,
    ...(r.background ? { background: true } : {}),
    ...(r.code ? { code: r.code } : {}),
    ...(r.retryInMs !== undefined ? { retry_in_ms: Math.round(r.retryInMs) } : {}),
  });
}
