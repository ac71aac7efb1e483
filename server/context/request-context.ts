import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ResolvedSession } from '@/server/auth/sessions';

/**
 * What one browser request carries through everything it calls: set up once by the route wrapper
 * (server/http/route.ts) and read where it is needed — the Portal client takes the signal and notes each
 * upstream Request-Id, the logger stamps its lines with the request id, the audit names the actor and the
 * upstream id. Nothing per request is passed by hand. Work outside a request (the reconciler, webhook
 * processing after the reply, background refreshes) has no context and passes a signal itself if it needs one.
 */
export interface RequestContext {
  /** This request's own id, on every log line it causes. */
  readonly requestId: string;
  /** Aborted when the browser goes away (or a scope below it is done): every Portal call under it stops. */
  readonly signal: AbortSignal;
  /** Set by the route wrapper once the session is resolved; null on public routes. */
  session: ResolvedSession | null;
  /** Shared by the request and every abort scope below it. */
  readonly upstream: UpstreamIds;
  /** Room for a trace (span ids) when the BFF gets one. */
  trace?: unknown;
}

export interface UpstreamIds {
  /** The upstream Request-Id the reply names (header, audit): the last write's, else the last read's. */
  requestId: string | null;
  /** Whether requestId came from a write: a read after it (a 412's current state) does not replace it. */
  fromWrite: boolean;
}

const storage = new AsyncLocalStorage<RequestContext>();

let counter = 0;
const PREFIX = `bff_${process.pid.toString(36)}_${Date.now().toString(36)}_`;

/** A context for a request with this signal; cheap: two small objects and a counter, no random bytes. */
export function newRequestContext(signal: AbortSignal): RequestContext {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return { requestId: PREFIX + counter.toString(36), signal, session: null, upstream: { requestId: null, fromWrite: false } };
}

/** Runs `fn` (the whole handling of one request) with `context` as the current request. */
export const runInRequest = <T>(context: RequestContext, fn: () => T): T => storage.run(context, fn);

/** The request being handled, or undefined outside one. */
export const currentRequest = (): RequestContext | undefined => storage.getStore();

/**
 * Runs `fn` with Portal calls stopped by `signal` as well as by the request's own (a group of parallel reads
 * that ends early once one failed). Outside a request, `signal` alone.
 */
export function withAbortScope<T>(signal: AbortSignal, fn: () => T): T {
  const parent = storage.getStore();
  const scope = parent ? { ...parent, signal: AbortSignal.any([parent.signal, signal]) } : newRequestContext(signal);
  return storage.run(scope, fn);
}

/** Notes the Request-Id of an upstream reply (success or refusal) on the current request, if there is one. */
export function noteUpstreamReply(method: string, requestId: string | null): void {
  const upstream = storage.getStore()?.upstream;
  if (!upstream || !requestId) return;
  const write = method !== 'GET' && method !== 'HEAD';
  if (!write && upstream.fromWrite) return;
  upstream.requestId = requestId;
  upstream.fromWrite = write;
}
