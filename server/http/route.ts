import 'server-only';
import { NextResponse, type NextRequest } from 'next/server';
import type { z } from 'zod';
import type { Endpoint, ReplyOf } from '@/lib/api/endpoint';
import type { Role } from '@/lib/bff/roles';
import { readSessionCookie, resolveSessionCached, type ResolvedSession } from '@/server/auth';
import { recordRequestAudit, type AuditObject } from '@/server/audit';
import { currentRequest, newRequestContext, runInRequest } from '@/server/context/request-context';
import type { Db } from '@/server/db/types';
import { getEnv } from '@/server/env';
import { clip, log } from '@/server/log';
import { isPortalError, toBrowserError } from '@/server/portal';
import { apiReplyHeaders } from './security-headers';
import { passedProxy } from './proxy-mark';
import { malformedTarget, rawTarget, targetRefusalBody } from './request-target';
import { AppError } from './app-error';
import { deeperThan, tooDeep } from './json-depth';
import { checkCsrf } from './csrf';
import { publicOrigin } from './public-origin';
import { cookieSettings, sessionPolicy } from '@/server/auth/session-settings';
import { appDb } from '@/server/db/app-db';
import { tracked } from '@/server/lifecycle/in-flight';
import { currentPhase } from '@/server/lifecycle/phase';
import { recordRequest } from '@/server/ops/metrics';
import { SpanKind, inSpan } from '@/server/ops/tracing';


export type { AuditObject } from '@/server/audit';

export interface RouteSpec<P, Q, B> {
  /** Who may call: the roles, or 'public' (no session; sign-in and invitation redemption). */
  roles: readonly Role[] | 'public';
  /**
   * false turns the CSRF check off, for server-to-server routes only (the Portal's webhooks): they carry
   * no cookie to abuse and prove themselves otherwise (a signature). Allowed only with roles 'public'.
   */
  csrf?: false;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  /** JSON body schema; 'stream' leaves the body unread (uploads). */
  body?: z.ZodType<B> | 'stream';
  /**
   * The application a request acts on, for per-object authorization: a client session reaches only its
   * invited application. Required when roles include 'client'.
   */
  application?: (input: { params: P; query: Q }) => string;
  /** Records every call of a write in the audit log, with its outcome. */
  audit?: { operation: string; object: (input: { params: P; query: Q; body: B }) => AuditObject };
}

export interface RouteContext<P, Q, B> {
  req: NextRequest;
  params: P;
  query: Q;
  body: B;
  /** Null only on public routes. */
  session: ResolvedSession | null;
  db: Db;
  /** The app's public origin (publicOrigin): links and cookies, never the request's Host. */
  origin: string;
  /** Completes the audited object once the Portal's reply names it (a create learns its id only then). */
  auditObject(update: Partial<AuditObject>): void;
}

/** A handler's answer: the endpoint's reply (lib/api/endpoints.ts) as JSON, or a Response of its own (a stream, a 412 with `current`). */
export type RouteResult<R = unknown> = { status?: number; body: R; headers?: Record<string, string> } | Response;

const NO_STORE = { 'Cache-Control': 'private, no-store' };

function errorResponse(e: unknown, upstreamRequestId: string | null) {
  if (e instanceof AppError) {
    return NextResponse.json(
      { error: { code: e.code, message: e.message, request_id: upstreamRequestId, details: e.details } },
      { status: e.status, headers: { ...NO_STORE, ...e.headers } },
    );
  }
  if (!isPortalError(e)) log.error('route failed', { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  const mapped = toBrowserError(e);
  return NextResponse.json(mapped.body, { status: mapped.status, headers: { ...NO_STORE, ...mapped.headers } });
}

/** Refused before anything ran, so repeating it is safe; the connection closes so the retry opens a new one. */
function drainingResponse() {
  const response = errorResponse(new AppError('draining', 'This server is restarting. Nothing was changed; try again in a moment.', [], { 'Retry-After': '1' }), null);
  response.headers.set('Connection', 'close');
  return response;
}

function parseOr400<T>(schema: z.ZodType<T> | undefined, value: unknown, what: 'parameter' | 'query'): T {
  if (!schema) return undefined as T;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new AppError(
    'invalid_request',
    `Invalid ${what === 'query' ? 'query parameter' : 'path parameter'}.`,
    parsed.error.issues.map((i) => {
      const name = i.code === 'unrecognized_keys' ? i.keys.join(', ') : i.path.join('.');
      return { code: i.code === 'unrecognized_keys' ? 'unsupported_parameter' : 'invalid', message: i.message, parameter: name };
    }),
  );
}

async function parseBody<B>(req: NextRequest, schema: z.ZodType<B>): Promise<B> {
  const text = await req.text().catch(() => null);
  if (text === null) throw new AppError('invalid_request', 'The request body could not be read.');
  // Before anything parses it: JSON.parse and the schemas recurse, and a deep enough body overflowed the stack.
  if (deeperThan(text)) throw tooDeep('The request body');
  let json: unknown;
  try {
    json = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', 'The request body is not valid JSON.');
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw new AppError(
    'validation_failed',
    'Some fields are not valid.',
    parsed.error.issues.map((i) => ({ code: 'invalid', message: i.message, parameter: i.path.join('.') })),
  );
}

/** The session of a request, or null: the cookie only names it, the server-side record decides. */
export async function sessionOf(req: NextRequest, db: Db, origin: string) {
  const sid = await readSessionCookie(req.cookies, cookieSettings(origin));
  return sid ? resolveSessionCached(db, sid, sessionPolicy()) : null;
}

/**
 * The one wrapper of every browser-facing route: no-store JSON, CSRF on non-GETs, the session and its
 * role, per-object authorization, input parsing, error mapping and the audit record of writes. `endpoint`
 * (lib/api/endpoints.ts) types the reply, so the handler answers what the browser's calls expect.
 */
export function route<E extends Endpoint, P = undefined, Q = undefined, B = undefined>(
  endpoint: E,
  spec: RouteSpec<P, Q, B>,
  handle: (ctx: RouteContext<P, Q, B>) => Promise<RouteResult<ReplyOf<E>>>,
) {
  if (spec.csrf === false && spec.roles !== 'public') throw new Error('csrf: false is for public server-to-server routes only');
  return async (req: NextRequest, segment: { params: Promise<Record<string, string | string[]>> }) => {
    const started = performance.now();
    const attributes = { 'http.request.method': req.method, 'http.route': endpoint.path };
    const response = await inSpan(`${req.method} ${endpoint.path}`, SpanKind.SERVER, attributes, async (span) => {
      const r = await answer(req, segment);
      span?.setAttribute('http.response.status_code', r.status);
      return r;
    }, req.headers);
    recordRequest(endpoint.path, req.method, response.status, (performance.now() - started) / 1000);
    return response;
  };

  async function answer(req: NextRequest, segment: { params: Promise<Record<string, string | string[]>> }): Promise<Response> {
    // An upload skips proxy.ts so its body streams (see its matcher): what the proxy guarantees is done here.
    if (passedProxy(req.headers)) return serve(req, segment);
    const bad = malformedTarget(rawTarget(req.url));
    if (bad) log.warn('malformed request refused', { method: req.method, path: clip(rawTarget(req.url)), parameter: bad.parameter });
    const response = bad ? NextResponse.json(targetRefusalBody(bad), { status: 400, headers: NO_STORE }) : await serve(req, segment);
    const https = getEnv().appOrigin?.startsWith('https:') || req.nextUrl.protocol === 'https:';
    for (const [k, v] of Object.entries(apiReplyHeaders({ https, pathname: req.nextUrl.pathname }))) response.headers.set(k, v);
    return response;
  }

  // The request context (server/context) carries the signal, the session and the upstream ids to everything below.
  // A stopping instance takes nothing new (the caller repeats it elsewhere) and finishes what it has (lifecycle/shutdown).
  function serve(req: NextRequest, segment: { params: Promise<Record<string, string | string[]>> }): Promise<Response> {
    if (currentPhase() === 'draining') return Promise.resolve(drainingResponse());
    return tracked(() => runInRequest(newRequestContext(req.signal), () => serveInContext(req, segment)));
  }

  async function serveInContext(req: NextRequest, segment: { params: Promise<Record<string, string | string[]>> }): Promise<Response> {
    const context = currentRequest()!;
    let audit: { db: Db; object: AuditObject } | null = null;
    try {
      const origin = publicOrigin();
      if (spec.csrf !== false) checkCsrf(req, getEnv().appOrigin);
      const db = await appDb();
      let session: ResolvedSession | null = null;
      if (spec.roles !== 'public') {
        session = await sessionOf(req, db, origin);
        if (!session) throw new AppError('unauthenticated', 'Sign in to continue.');
        if (!spec.roles.includes(session.role)) throw new AppError('forbidden', 'Your role does not allow this.');
        context.session = session;
      }
      const params = parseOr400(spec.params, await segment.params, 'parameter');
      const query = parseOr400(spec.query, Object.fromEntries(req.nextUrl.searchParams), 'query');
      if (session?.role === 'client') {
        const target = spec.application?.({ params, query });
        // Another application is indistinguishable from a missing one.
        if (!target || target !== session.applicationId) throw new AppError('not_found', 'Not found.');
      }
      const body = spec.body && spec.body !== 'stream' ? await parseBody(req, spec.body) : (undefined as B);
      if (spec.audit && session) audit = { db, object: spec.audit.object({ params, query, body }) };
      const auditObject = (update: Partial<AuditObject>) => {
        if (audit) audit.object = { ...audit.object, ...update };
      };
      const result = await handle({ req, params, query, body, session, db, origin, auditObject });
      const response =
        result instanceof Response
          ? result
          : NextResponse.json(result.body, { status: result.status ?? 200, headers: { ...NO_STORE, ...result.headers } });
      if (context.upstream.requestId) response.headers.set('X-Upstream-Request-Id', context.upstream.requestId);
      // A handler may answer a refusal itself (a 412 carrying the current state): the status decides.
      if (audit) await recordRequestAudit(audit.db, spec.audit!.operation, audit.object, response.status < 400 ? 'success' : 'failure', response.status);
      return response;
    } catch (e) {
      if (isPortalError(e) && e.requestId) context.upstream.requestId = e.requestId;
      const response = errorResponse(e, context.upstream.requestId);
      if (audit) await recordRequestAudit(audit.db, spec.audit!.operation, audit.object, 'failure', response.status).catch(() => undefined);
      return response;
    }
  }
}

/** The audit of a create (`<type>.create`): the new object's id is known only from the reply, which auditObject adds. */
export const auditCreate = (type: string) => ({ operation: `${type}.create`, object: () => ({ type, id: 'new' }) });
