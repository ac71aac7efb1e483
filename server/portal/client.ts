import 'server-only';
import { portalFetch, type WholeReply } from './http-transport';
import type { z } from 'zod';
import { currentRequest } from '@/server/context/request-context';
import { getEnv } from '@/server/env/get-env';
import { PortalError, publicUrlOf } from './errors';
import { errorFromReply } from './error-reply';
import { etagOf, ifMatchValue, ifNoneMatchValue } from './etag';
import { idempotencyKeyValue } from './idempotency';
import { dropRefusedPageSize, fitPageSize } from './page-size';
import { MAX_REPLY_BYTES, ReplyTooLarge, discard, parseJson, readText } from './read-body';
import { logPortalCall } from './request-log';
import { operationOf } from '@/server/ops/metrics';
import { SpanKind, inSpan, injectTraceContext } from '@/server/ops/tracing';
import { RETRY_POLICY, backoffMs, rateLimitWaitMs, repeatableAfterFailure, retryTiming } from './retry-policy';
import type { PortalPath } from './routes';
import { trustedPortalUrl } from './url-guard';

export type PortalMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type PortalQuery = Readonly<Record<string, string | number | boolean | null | undefined>>;

type Target =
  /** An absolute URL returned by a read (contract_url, operations.*, retry_url, ...). */
  | { url: string | URL; path?: never }
  /** A path from routes.ts. */
  | { path: PortalPath; url?: never };

export type PortalRequestOptions<S extends z.ZodType> = Target & {
  method?: PortalMethod;
  /** The lib/portal schema of the success body. Required: nothing unparsed leaves this client. */
  schema: S;
  /** Added to the URL's query; null and undefined values are left out. */
  query?: PortalQuery;
  /** Sent as JSON. */
  body?: unknown;
  /** The complete ETag from a read, quotes included; also makes a write retryable after a 5xx or a network error. */
  ifMatch?: string;
  /** One per user action; also what makes a command retryable after a 5xx or a network error. */
  idempotencyKey?: string;
  /** Budget of the whole call, retries and waits included; PORTAL_TIMEOUT_MS by default. */
  timeoutMs?: number;
  /**
   * The caller's cancellation, for work outside a browser request (a request's own signal is taken from the
   * request context, server/context, without being passed).
   */
  signal?: AbortSignal;
  /** Work nobody waits on (the workspace's reconciler and event refreshes): said in the log, so its calls are told apart from a person's. */
  background?: boolean;
};

export interface PortalResponse<T> {
  data: T;
  /** The ETag header verbatim, for a later If-Match. */
  etag: string | null;
  /** The upstream Request-Id header. */
  requestId: string | null;
  status: number;
  /** The Portal's reply headers. Never forward them to a browser wholesale. */
  headers: Headers;
  attempts: number;
  /** Only portalRevalidate's replies can be `true`; see PortalNotModified. */
  notModified?: false;
}

/**
 * A 304 to a conditional GET (portalRevalidate): the caller's copy, named by the ETag it sent in
 * If-None-Match, is still current. There is no body, so no `data`.
 */
export interface PortalNotModified {
  notModified: true;
  data: undefined;
  /** The ETag the Portal confirmed (the one sent, possibly as a weak validator). */
  etag: string | null;
  requestId: string | null;
  status: 304;
  headers: Headers;
  attempts: number;
}

/** portalRequest's options plus the ETag of the copy the caller holds. GET only. */
export type PortalRevalidateOptions<S extends z.ZodType> = PortalRequestOptions<S> & {
  method?: 'GET';
  /** The complete ETag of the caller's copy, quotes included: a 304 means that copy is current. */
  ifNoneMatch: string;
};

interface Failure {
  ok: false;
  error: PortalError;
  /** The HTTP status received, null when no reply arrived. */
  status: number | null;
  retry: 'never' | 'after-failure' | 'rate-limited';
  retryAfterMs?: number;
}
type Attempt = { ok: true; status: number; headers: Headers; data: unknown; notModified: boolean } | Failure;

interface CallContext {
  method: PortalMethod;
  url: URL;
  shownUrl: string;
  headers: Headers;
  body: string | undefined;
  signal: AbortSignal;
  timeoutSignal: AbortSignal;
  callerSignal: AbortSignal | undefined;
  timeoutMs: number;
  schema: z.ZodType;
  /** If-None-Match was sent: a 304 is an answer, not a redirect. */
  conditional: boolean;
}

/** A failure before any reply: the caller gave up, our budget ran out, or the network failed. */
function transportError(e: unknown, ctx: CallContext, requestId: string | null = null, status: number | null = null): Failure {
  const base = { url: ctx.shownUrl, method: ctx.method, requestId };
  if (ctx.callerSignal?.aborted) {
    return { ok: false, status, retry: 'never', error: PortalError.local('request_aborted', 'The request was cancelled.', base) };
  }
  if (ctx.timeoutSignal.aborted) {
    return {
      ok: false,
      status,
      retry: 'never',
      error: PortalError.local('upstream_timeout', `The Portal did not answer within ${ctx.timeoutMs} ms.`, base),
    };
  }
  const cause = (e as { cause?: { code?: unknown } } | null)?.cause?.code;
  const why = typeof cause === 'string' && /^[A-Z0-9_]+$/.test(cause) ? ` (${cause})` : '';
  return {
    ok: false,
    status,
    retry: 'after-failure',
    error: PortalError.local('upstream_unreachable', `The Portal could not be reached${why}.`, base),
  };
}

function badReply(ctx: CallContext, requestId: string | null, message: string, issues: z.ZodError['issues'] = []) {
  return PortalError.local('bad_upstream_reply', message, {
    url: ctx.shownUrl,
    method: ctx.method,
    requestId,
    details: issues.slice(0, 20).map((i) => ({
      code: i.code,
      message: i.message,
      parameter: i.path.length > 0 ? i.path.map(String).join('.') : '(root)',
    })),
  });
}

async function attemptOnce(ctx: CallContext): Promise<Attempt> {
  let res: WholeReply;
  try {
    // Redirects are never followed (one could carry the Authorization header to wherever Location points).
    res = await portalFetch(ctx.url, { method: ctx.method, headers: ctx.headers, body: ctx.body, signal: ctx.signal });
  } catch (e) {
    return transportError(e, ctx);
  }
  const requestId = res.headers.get('request-id');
  if (ctx.conditional && res.status === 304) {
    await discard(res);
    return { ok: true, status: 304, headers: res.headers, data: undefined, notModified: true };
  }
  if (res.status >= 300 && res.status < 400) {
    await discard(res);
    return {
      ok: false,
      status: res.status,
      retry: 'never',
      error: PortalError.local('upstream_redirect', `The Portal replied with a redirect (HTTP ${res.status}), which is not followed.`, {
        url: ctx.shownUrl,
        method: ctx.method,
        requestId,
      }),
    };
  }
  if (!res.ok) {
    try {
      const { error, retryAfterMs } = await errorFromReply(res, { method: ctx.method, url: ctx.shownUrl });
      if (res.status === 429) return { ok: false, status: 429, error, retry: 'rate-limited', retryAfterMs };
      return { ok: false, status: res.status, error, retry: RETRY_POLICY.retryStatuses.includes(res.status) ? 'after-failure' : 'never' };
    } catch (e) {
      return transportError(e, ctx, requestId, res.status);
    }
  }
  let text: string;
  try {
    text = ctx.method === 'HEAD' ? '' : await readText(res, MAX_REPLY_BYTES);
  } catch (e) {
    if (e instanceof ReplyTooLarge) {
      return { ok: false, status: res.status, retry: 'never', error: badReply(ctx, requestId, `The Portal's reply is larger than ${MAX_REPLY_BYTES} bytes.`) };
    }
    return transportError(e, ctx, requestId, res.status);
  }
  const json = parseJson(text);
  if (!json.ok) {
    return { ok: false, status: res.status, retry: 'never', error: badReply(ctx, requestId, 'The Portal replied with a body that is not JSON.') };
  }
  const parsed = ctx.schema.safeParse(json.value);
  if (!parsed.success) {
    return {
      ok: false,
      status: res.status,
      retry: 'never',
      error: badReply(ctx, requestId, "The Portal's reply does not match the expected schema.", parsed.error.issues),
    };
  }
  return { ok: true, status: res.status, headers: res.headers, data: parsed.data, notModified: false };
}

function buildUrl(options: Target & { query?: PortalQuery }, base: URL): URL {
  const url =
    options.path !== undefined ? trustedPortalUrl(new URL(options.path, base), base) : trustedPortalUrl(options.url, base);
  for (const [k, v] of Object.entries(options.query ?? {})) {
    if (v !== null && v !== undefined) url.searchParams.set(k, String(v));
  }
  return url;
}

/**
 * THE way to call the Portal API. Adds the key (only after the URL guard accepted the target), never forwards
 * anything from the browser (it takes no incoming request), parses the reply with `schema`, retries per
 * RETRY_POLICY, logs one line per attempt, and throws nothing but PortalError.
 */
export async function portalRequest<S extends z.ZodType>(options: PortalRequestOptions<S>): Promise<PortalResponse<z.output<S>>> {
  const res = await call(options, undefined);
  // Without If-None-Match a 304 is refused as a redirect, so only full replies reach here.
  if (res.notModified) throw PortalError.local('bad_upstream_reply', 'The Portal answered 304 to a request that was not conditional.');
  return res;
}

/**
 * A conditional GET through the same client (guard, key, retries, logging): `If-None-Match: <ifNoneMatch>`.
 * A 304 comes back as PortalNotModified (no body: the caller's copy is current); a 200 as portalRequest's
 * reply, parsed with `schema`.
 */
export async function portalRevalidate<S extends z.ZodType>(
  options: PortalRevalidateOptions<S>,
): Promise<PortalResponse<z.output<S>> | PortalNotModified> {
  if ((options.method ?? 'GET') !== 'GET') {
    throw PortalError.local('invalid_request', 'Only a GET is revalidated with If-None-Match.');
  }
  return call(options, ifNoneMatchValue(options.ifNoneMatch));
}

async function call<S extends z.ZodType>(
  options: PortalRequestOptions<S>,
  ifNoneMatch: string | undefined,
): Promise<PortalResponse<z.output<S>> | PortalNotModified> {
  const env = getEnv();
  const method = options.method ?? 'GET';
  const base = new URL(env.portalBaseUrl);
  const url = buildUrl(options, base);
  fitPageSize(method, url);

  const headers = new Headers({ Accept: 'application/json' });
  if (options.ifMatch !== undefined) headers.set('If-Match', ifMatchValue(options.ifMatch));
  if (ifNoneMatch !== undefined) headers.set('If-None-Match', ifNoneMatch);
  if (options.idempotencyKey !== undefined) headers.set('Idempotency-Key', idempotencyKeyValue(options.idempotencyKey));
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set('Content-Type', 'application/json');
  }
  headers.set('Authorization', `Bearer ${env.portalApiKey}`);

  const timeoutMs = options.timeoutMs ?? env.portalTimeoutMs;
  const deadline = Date.now() + timeoutMs;
  const timeoutSignal = AbortSignal.timeout(timeoutMs);
  const callerSignal = options.signal ?? (options.background ? undefined : currentRequest()?.signal);
  const ctx: CallContext = {
    method,
    url,
    shownUrl: publicUrlOf(url),
    headers,
    body,
    signal: callerSignal ? AbortSignal.any([timeoutSignal, callerSignal]) : timeoutSignal,
    timeoutSignal,
    callerSignal,
    timeoutMs,
    schema: options.schema,
    conditional: ifNoneMatch !== undefined,
  };
  const canRepeat = repeatableAfterFailure(method, options);
  const timing = retryTiming();

  const attrs = { 'http.request.method': method, 'portal.operation': operationOf(url.pathname), 'server.address': url.host };
  return inSpan(`portal ${method} ${attrs['portal.operation']}`, SpanKind.CLIENT, attrs, async (span): Promise<PortalResponse<z.output<S>> | PortalNotModified> => {
    // The Portal's own traces join the BFF's (W3C trace context).
    injectTraceContext(headers);
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const result = await attemptOnce(ctx);
      const ms = performance.now() - started;

      if (result.ok) {
        const requestId = result.headers.get('request-id');
        span?.setAttributes({ 'http.response.status_code': result.status, 'portal.attempts': attempt });
        logPortalCall({ method, path: url.pathname, status: result.status, ms, requestId, attempt, background: options.background });
        const etag = etagOf(result.headers);
        if (result.notModified) return { notModified: true, data: undefined, etag, requestId, status: 304, headers: result.headers, attempts: attempt };
        return { data: result.data as z.output<S>, etag, requestId, status: result.status, headers: result.headers, attempts: attempt };
      }

      if (dropRefusedPageSize(method, url, result.status, result.error)) {
        logPortalCall({ method, path: url.pathname, status: result.status, ms, requestId: result.error.requestId, attempt, background: options.background, code: 'page_size_refused', retryInMs: 0 });
        continue;
      }
      let wait: number | null = null;
      if (attempt < RETRY_POLICY.maxAttempts) {
        if (result.retry === 'rate-limited' && (result.retryAfterMs ?? 0) <= RETRY_POLICY.maxRetryAfterMs) {
          wait = rateLimitWaitMs(attempt, result.retryAfterMs, timing.random);
        } else if (result.retry === 'after-failure' && canRepeat) {
          wait = backoffMs(attempt, timing.random);
        }
        // No point waiting for an attempt the budget cannot cover.
        if (wait !== null && Date.now() + wait >= deadline) wait = null;
      }
      const { error } = result;
      logPortalCall({
        method,
        path: url.pathname,
        status: result.status,
        ms,
        requestId: error.requestId,
        attempt,
        background: options.background,
        code: String(error.code),
        ...(wait !== null ? { retryInMs: wait } : {}),
      });
      if (wait === null) throw error;
      try {
        await timing.sleep(wait, ctx.signal);
      } catch (e) {
        throw transportError(e, ctx).error;
      }
    }
  });
}
