import 'server-only';
import { Readable } from 'node:stream';
import type { z } from 'zod';
import { getEnv } from '@/server/env/get-env';
import { UPLOAD_CONTENT_TYPES } from '@/lib/portal/limits';
import { contentDisposition } from './content-disposition';
import { PortalError, publicUrlOf } from './errors';
import { errorFromReply } from './error-reply';
import { MAX_REPLY_BYTES, discard, parseJson, readText } from './read-body';
import { logPortalCall } from './request-log';
import { currentRequest } from '@/server/context/request-context';

/** Transfers stream at the browser's pace, so they get far more time than API calls. */
export const DEFAULT_TRANSFER_TIMEOUT_MS = 5 * 60_000;

export type TransferBody = ReadableStream<Uint8Array> | Readable | Buffer | Uint8Array;

export interface PortalTransferOptions<S extends z.ZodType> {
  /** The signed upload_url from a read: its own credential, so the API key is never added. */
  uploadUrl: string;
  body: TransferBody;
  contentType: string;
  filename: string;
  /** Sent as Content-Length when known (otherwise the body is chunked). */
  size?: number;
  /** The reply's schema, e.g. BusinessFileUploadResult. */
  schema: S;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface PortalTransferResult<T> {
  data: T;
  status: number;
  requestId: string | null;
}

const MEDIA_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;\s*[A-Za-z0-9!#$&^_.+-]+=("[^"\r\n]*"|[A-Za-z0-9!#$&^_.+-]+))*$/;

/** Transfer and download URLs: any http(s) host (storage may live elsewhere), but never with user info. */
function transferUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw PortalError.local('untrusted_url', `The ${what} URL is not an absolute URL.`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
    throw PortalError.local('untrusted_url', `The ${what} URL must be http(s) without a user name or password.`, { url: publicUrlOf(url) });
  }
  return url;
}

/**
 * Headers of a transfer, built from scratch. The last check is belt and braces: whatever a future edit does
 * above it, no value holding the API key leaves through a transfer.
 */
function transferHeaders(entries: Record<string, string>): Headers {
  const headers = new Headers(entries);
  const key = getEnv().portalApiKey;
  for (const [name, value] of headers) {
    if (name === 'authorization' || value.includes(key)) {
      throw new PortalError({ status: 500, code: 'internal_error', message: 'A transfer must never carry the API key.' });
    }
  }
  return headers;
}

/** A fetch body that streams: web streams as they are, Node streams converted, buffers sent whole. */
function toFetchBody(body: TransferBody): ReadableStream<Uint8Array> | Uint8Array {
  if (body instanceof Readable) return Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>;
  return body;
}

/** The caller's own signal (work outside a request), else the current request's (server/context). */
const callerSignal = (own: AbortSignal | undefined) => own ?? currentRequest()?.signal;

/** A deadline that can be lifted once headers arrive (a download's body then streams as long as it takes). */
function deadline(ms: number, caller: AbortSignal | undefined) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The transfer timed out.', 'TimeoutError')), ms);
  const signal = caller ? AbortSignal.any([controller.signal, caller]) : controller.signal;
  return { signal, timedOut: () => controller.signal.aborted, clear: () => clearTimeout(timer) };
}

function failure(e: unknown, timedOut: boolean, caller: AbortSignal | undefined, ms: number, base: { url: string; method: string }) {
  if (caller?.aborted) return PortalError.local('request_aborted', 'The transfer was cancelled.', base);
  if (timedOut) return PortalError.local('upstream_timeout', `The transfer did not complete within ${ms} ms.`, base);
  const cause = (e as { cause?: { code?: unknown } } | null)?.cause?.code;
  const why = typeof cause === 'string' && /^[A-Z0-9_]+$/.test(cause) ? ` (${cause})` : '';
  return PortalError.local('upstream_unreachable', `The transfer failed${why}.`, base);
}

type Done = (status: number | null, requestId: string | null, code?: string) => void;

/** Logs a transfer or download once it ends: its status, time taken, request id and error code. */
function callLog(kind: 'transfer' | 'download', method: string, path: string): Done {
  const started = performance.now();
  return (status, requestId, code) =>
    logPortalCall({ kind, method, path, status, ms: performance.now() - started, requestId, attempt: 1, ...(code ? { code } : {}) });
}

/** The request id of a successful reply; a redirect (never followed) or an error reply is logged and thrown. */
async function successOf(res: Response, base: { url: string; method: string }, done: Done, what: 'upload' | 'download') {
  const requestId = res.headers.get('request-id');
  if (res.status >= 300 && res.status < 400) {
    await discard(res);
    done(res.status, requestId, 'upstream_redirect');
    throw PortalError.local('upstream_redirect', `The ${what} URL replied with a redirect (HTTP ${res.status}), which is not followed.`, { ...base, requestId });
  }
  if (!res.ok) {
    const { error } = await errorFromReply(res, base);
    done(res.status, requestId, String(error.code));
    throw error;
  }
  return requestId;
}

/**
 * PUTs a file to a signed upload_url, streaming it (never buffered whole), WITHOUT the API key. Not retried:
 * a stream cannot be replayed. Throws PortalError only.
 */
export async function portalTransfer<S extends z.ZodType>(options: PortalTransferOptions<S>): Promise<PortalTransferResult<z.output<S>>> {
  const url = transferUrl(options.uploadUrl, 'upload');
  const shown = publicUrlOf(url);
  const base = { url: shown, method: 'PUT' };
  if (!MEDIA_TYPE.test(options.contentType)) {
    throw PortalError.local('invalid_request', 'Not a valid media type.', {
      ...base,
      details: [{ code: 'invalid_header', message: 'e.g. application/pdf', parameter: 'Content-Type' }],
    });
  }
  const entries: Record<string, string> = {
    'Content-Type': options.contentType,
    'Content-Disposition': contentDisposition(options.filename),
    Accept: 'application/json',
  };
  if (options.size !== undefined) {
    if (!Number.isSafeInteger(options.size) || options.size < 0) {
      throw PortalError.local('invalid_request', 'The file size must be a whole number of bytes.', base);
    }
    entries['Content-Length'] = String(options.size);
  }
  const headers = transferHeaders(entries);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TRANSFER_TIMEOUT_MS;
  const caller = callerSignal(options.signal);
  const limit = deadline(timeoutMs, caller);
  const done = callLog('transfer', 'PUT', url.pathname);

  try {
    let res: Response;
    try {
      const init: RequestInit & { duplex: 'half' } = {
        method: 'PUT',
        headers,
        body: toFetchBody(options.body) as BodyInit,
        // Required by fetch for a streamed request body.
        duplex: 'half',
        redirect: 'manual',
        signal: limit.signal,
        cache: 'no-store',
      };
      res = await fetch(url, init);
    } catch (e) {
      const error = failure(e, limit.timedOut(), caller, timeoutMs, base);
      done(null, null, String(error.code));
      throw error;
    }
    const requestId = await successOf(res, base, done, 'upload');
    let text: string;
    try {
      text = await readText(res, MAX_REPLY_BYTES);
    } catch (e) {
      const error = failure(e, limit.timedOut(), caller, timeoutMs, { ...base });
      done(res.status, requestId, String(error.code));
      throw error;
    }
    const json = parseJson(text);
    const parsed = json.ok ? options.schema.safeParse(json.value) : null;
    if (!parsed?.success) {
      done(res.status, requestId, 'bad_upstream_reply');
      throw PortalError.local('bad_upstream_reply', "The upload reply does not match the expected schema.", {
        ...base,
        requestId,
        details: (parsed?.error.issues ?? []).slice(0, 20).map((i) => ({
          code: i.code,
          message: i.message,
          parameter: i.path.length > 0 ? i.path.map(String).join('.') : '(root)',
        })),
      });
    }
    done(res.status, requestId);
    return { data: parsed.data as z.output<S>, status: res.status, requestId };
  } finally {
    limit.clear();
  }
}

export interface PortalDownloadOptions {
  signal?: AbortSignal;
  /** Until the reply's headers arrive; the body then streams under the caller's signal only. */
  timeoutMs?: number;
}

/**
 * GETs a signed download link WITHOUT the API key and returns the upstream Response with its body unread,
 * for streaming to the browser. Copy only safeDownloadHeaders() onto the browser's reply.
 */
export async function portalDownload(rawUrl: string, options: PortalDownloadOptions = {}): Promise<Response> {
  const url = transferUrl(rawUrl, 'download');
  const base = { url: publicUrlOf(url), method: 'GET' };
  const timeoutMs = options.timeoutMs ?? getEnv().portalTimeoutMs;
  const caller = callerSignal(options.signal);
  const limit = deadline(timeoutMs, caller);
  const done = callLog('download', 'GET', url.pathname);
  let res: Response;
  try {
    res = await fetch(url, { method: 'GET', headers: transferHeaders({ Accept: '*/*' }), redirect: 'manual', signal: limit.signal, cache: 'no-store' });
  } catch (e) {
    limit.clear();
    const error = failure(e, limit.timedOut(), caller, timeoutMs, base);
    done(null, null, String(error.code));
    throw error;
  }
  limit.clear();
  const requestId = await successOf(res, base, done, 'download');
  done(res.status, requestId);
  return res;
}

const FORWARDABLE = ['content-length', 'last-modified', 'etag'] as const;

/**
 * The headers of a download as the browser gets it. Only what is safe comes from the storage host: its length
 * and validators. The type is the upstream's only when it is a type the app takes in uploads (else
 * application/octet-stream), and the file is always an attachment named as the Portal lists it, so a
 * compromised storage host can never make the app's origin render a page (text/html, inline).
 */
export function safeDownloadHeaders(res: Response, filename: string): Headers {
  const out = new Headers({ 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' });
  for (const name of FORWARDABLE) {
    const v = res.headers.get(name);
    if (v !== null) out.set(name, v);
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  out.set('Content-Type', (UPLOAD_CONTENT_TYPES as readonly string[]).includes(type) ? type : 'application/octet-stream');
  out.set('Content-Disposition', contentDisposition(filename));
  return out;
}
