import 'server-only';
import { ERROR_STATUS, ErrorBody, type ErrorDetail } from '@/lib/portal';
import { maskSecrets } from '@/server/log/logger';
import { PortalError } from './errors';
import type { WholeReply } from './http-transport';
import { MAX_ERROR_BYTES, parseJson, readText } from './read-body';
import { parseRetryAfter } from './retry-policy';

/** For replies without a usable error body (a proxy's HTML page, an empty 503): the code its status implies. */
const CODE_BY_STATUS = new Map<number, string>(
  Object.entries(ERROR_STATUS)
    .filter(([code]) => code !== 'idempotency_key_reused')
    .map(([code, status]) => [status, code]),
);

const codeForStatus = (status: number) => CODE_BY_STATUS.get(status) ?? (status >= 500 ? 'upstream_error' : 'upstream_rejected');

export interface ErrorReplyContext {
  method: string;
  /** Origin and path only. */
  url: string;
}

/**
 * Turns a non-2xx reply into a PortalError. Tolerates any body: the status alone still gives a code. The
 * upstream's words are masked in case a misbehaving server echoes a credential.
 */
export async function errorFromReply(res: Response | WholeReply, ctx: ErrorReplyContext): Promise<{ error: PortalError; retryAfterMs: number | undefined }> {
  const headerRequestId = res.headers.get('request-id');
  const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
  const text = await readText(res, MAX_ERROR_BYTES, true).catch(() => '');
  const json = parseJson(text);
  const body = json.ok ? ErrorBody.safeParse(json.value) : null;
  const common = {
    status: res.status,
    requestId: headerRequestId ?? (body?.success ? body.data.error.request_id : null),
    url: ctx.url,
    method: ctx.method,
    fromUpstream: true,
    ...(retryAfterMs !== undefined ? { retryAfter: Math.ceil(retryAfterMs / 1000) } : {}),
  };
  if (body?.success) {
    const { code, message, details } = body.data.error;
    const masked: ErrorDetail[] = details.map((d) => ({ ...d, message: maskSecrets(d.message) }));
    return { error: new PortalError({ ...common, code, message: maskSecrets(message), details: masked }), retryAfterMs };
  }
  return {
    error: new PortalError({ ...common, code: codeForStatus(res.status), message: `The Portal replied with HTTP ${res.status}.` }),
    retryAfterMs,
  };
}
