import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { effectivePermissions, type ApiKeyDef } from './keys';
import { DEFAULT_OPTIONS, type SandboxOptions } from './options';
import { Sandbox } from './sandbox';
import { authenticate } from './http/auth';
import { bodyError, zodDetails, type Ctx, type Reply } from './http/context';
import { readBody } from './http/body';
import { checkIfMatch, contentEtag } from './http/etag';
import { SandboxError } from './http/errors';
import { IdempotencyStore } from './http/idempotency';
import { newRequestId } from './http/request-id';
import { Router } from './http/router';
import { routeTable } from './handlers';
import { strictErrorReply } from './profiles/strict';
import { publicOpenApi } from './handlers/openapi';
import { handleDownload, handleInvitationPage, handleTransfer } from './handlers/transfers';
import { CONTROLS_PREFIX, SandboxControls } from './controls';
import { WebhookDeliverer } from './webhooks';
import { fundingState } from './funding/state';
import { sandboxLog } from './sandbox-log';

export interface RunningSandbox {
  sandbox: Sandbox;
  server: Server;
  origin: string;
  /** The API base URL, ending in /v1/. */
  baseUrl: string;
  port: number;
  /** Sends the sandbox's events to options.webhookUrl (idle without one). */
  webhooks: WebhookDeliverer;
  /** The test controls under /_sandbox/; null unless options.controls. */
  controls: SandboxControls | null;
  close(): Promise<void>;
}

const MAX_JSON_BYTES = 1024 * 1024;
const MAX_CONTROL_BYTES = 64 * 1024;

export function send(res: ServerResponse, reply: Reply) {
  const body = reply.body === undefined ? '' : JSON.stringify(reply.body);
  res.statusCode = reply.status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  res.end(body);
}

function errorReply(e: unknown, requestId: string): Reply {
  const err =
    e instanceof SandboxError ? e : new SandboxError('internal_error', 'The sandbox failed to handle this request.');
  if (!(e instanceof SandboxError)) sandboxLog.error({ request_id: requestId, err: e }, 'request failed');
  return {
    status: err.status,
    headers: err.headers,
    body: { error: { code: err.code, message: err.message, request_id: requestId, details: err.details } },
  };
}

/** 400 for a JSON body (API or controls) over its limit. */
const jsonTooLarge = (limit: number) => () =>
  new SandboxError('invalid_request', `The request body is larger than ${limit} bytes.`, [
    { code: 'body_too_large', message: `At most ${limit} bytes of JSON.` },
  ]);

function parseQuery(url: URL, schema: z.ZodType | undefined) {
  const raw: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    if (k in raw) {
      throw new SandboxError('invalid_request', `The query parameter ${k} is given twice.`, [
        { code: 'duplicate_parameter', message: `${k} is given twice.`, parameter: k },
      ]);
    }
    raw[k] = v;
  }
  if (!schema) {
    const first = Object.keys(raw)[0];
    if (first !== undefined) {
      throw new SandboxError('invalid_request', `Unsupported query parameter: ${first}.`, [
        { code: 'unsupported_parameter', message: `${first} is not supported by this operation.`, parameter: first },
      ]);
    }
    return {};
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const details = zodDetails(parsed.error, true);
    const unknown = parsed.error.issues.find((i) => i.code === 'unrecognized_keys');
    const message = unknown
      ? `Unsupported query parameter: ${details.find((d) => d.code === 'unknown_property')?.parameter}.`
      : `Invalid query parameter: ${details[0]?.parameter ?? ''}.`;
    throw new SandboxError(
      'invalid_request',
      message,
      details.map((d) => (d.code === 'unknown_property' ? { ...d, code: 'unsupported_parameter' } : d)),
    );
  }
  return parsed.data as Record<string, unknown>;
}

/**
 * An identical retry gets the first reply again, marked as a replay. A replayed error carries the retry's own
 * request_id, so the body always agrees with the Request-Id header of the response it arrives in.
 */
function replayOf(stored: Reply, requestId: string): Reply {
  const headers = { ...stored.headers, 'Idempotent-Replayed': 'true' };
  const body = stored.body as { error?: Record<string, unknown> } | undefined;
  if (body && typeof body === 'object' && body.error && typeof body.error === 'object') {
    return { ...stored, headers, body: { ...body, error: { ...body.error, request_id: requestId } } };
  }
  return { ...stored, headers };
}

/**
 * Token bucket per key. A key's own rate_per_second wins over the sandbox-wide rate (and applies even when that is
 * off, with a burst of one second's worth); a key whose rate_per_second is null is never throttled.
 */
function throttle(sb: Sandbox, key: ApiKeyDef) {
  const limit = sb.options.rateLimit;
  const own = key.rate_per_second;
  if (own === null) return;
  if (own !== undefined) {
    sb.limiter.take(key.id, own, Math.max(1, limit ? limit.burst : Math.ceil(own)));
    return;
  }
  if (limit && limit.perSecond > 0) sb.limiter.take(key.id, limit.perSecond, Math.max(limit.burst, 1));
}

/** If-None-Match (RFC 9110 §13.1.2): `*` or a list of entity tags, compared weakly. */
function noneMatch(header: string | string[] | undefined, etag: string) {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  const strip = (t: string) => (t.startsWith('W/') ? t.slice(2) : t);
  return value
    .split(',')
    .map((t) => t.trim())
    .some((t) => t === '*' || (t !== '' && strip(t) === strip(etag)));
}

async function handleApi(sb: Sandbox, router: Router, req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<Reply> {
  const key = authenticate(req.headers.authorization, sb.options);
  throttle(sb, key);

  const path = url.pathname.slice('/v1/'.length);
  const method = req.method ?? 'GET';
  const matched = router.match(method, path);
  if (!('route' in matched)) {
    throw new SandboxError(
      'not_found',
      matched.pathExists ? `${method} is not supported on ${url.pathname}.` : `No operation at ${url.pathname}.`,
    );
  }
  const { route, params } = matched;
  if (route.access !== 'any') {
    const perms = effectivePermissions(key);
    if (!route.access.some((p) => perms.has(p))) {
      throw new SandboxError('forbidden', `This API key lacks the permission for this operation (${route.access.join(' or ')}).`, [
        { code: 'missing_permission', message: `Requires ${route.access.join(' or ')}.` },
      ]);
    }
  }
  const query = parseQuery(url, route.query);

  let raw: Buffer | null = null;
  const header = (name: string) => {
    const v = req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  const rawBody = async () => (raw ??= await readBody(req, MAX_JSON_BYTES, jsonTooLarge(MAX_JSON_BYTES)));
  const ctx: Ctx = {
    sb,
    req,
    res,
    method,
    requestId,
    params,
    query,
    key,
    header,
    rawBody,
    ifMatch: (current) => checkIfMatch(header('if-match'), current, route.ifMatch === 'required'),
    async body(schema) {
      const buf = await rawBody();
      let json: unknown;
      try {
        json = buf.length === 0 ? {} : JSON.parse(buf.toString('utf8'));
      } catch {
        throw new SandboxError('invalid_request', 'The request body is not valid JSON.');
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw bodyError(parsed.error);
      return parsed.data;
    },
  };

  const idemKey = header('idempotency-key');
  if (route.idempotency === 'required' && !idemKey) {
    throw new SandboxError('invalid_request', 'This command requires an Idempotency-Key header.', [
      { code: 'missing_header', message: 'Send a new Idempotency-Key for each new command.', parameter: 'Idempotency-Key' },
    ]);
  }
  if (route.idempotency && idemKey) {
    if (idemKey.length > 255) {
      throw new SandboxError('invalid_request', 'The Idempotency-Key is longer than 255 characters.', [
        { code: 'invalid_header', message: 'At most 255 characters.', parameter: 'Idempotency-Key' },
      ]);
    }
    const fingerprint = IdempotencyStore.fingerprint(method, url.pathname, await rawBody(), header('if-match'));
    const replay = sb.idempotency.begin(key.id, idemKey, fingerprint);
    if (replay) return replayOf(replay, requestId);
    let reply: Reply;
    try {
      reply = await route.handle(ctx);
    } catch (e) {
      const r = errorReply(e, requestId);
      sb.idempotency.finish(key.id, idemKey, r);
      throw e;
    }
    sb.idempotency.finish(key.id, idemKey, reply);
    return reply;
  }
  return route.handle(ctx);
}

/** Starts a sandbox server. Resolves once it listens; `close()` stops it and flushes the data file. */
export async function startSandbox(overrides: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  const options: SandboxOptions = { ...DEFAULT_OPTIONS, ...overrides };
  const sb = new Sandbox(options);
  // Gives an older data file the funders (as recipients too) and carries on match runs under way.
  fundingState(sb);
  const router = new Router(routeTable(options.profile));
  const webhooks = new WebhookDeliverer(sb.clock, sb.events, {
    url: options.webhookUrl,
    secret: options.webhookSecret,
    maxAttempts: options.webhookMaxAttempts,
    timeoutMs: options.webhookTimeoutMs,
  });
  webhooks.start();
  const controls = options.controls ? new SandboxControls(sb, webhooks) : null;

  const server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    const requestId = newRequestId();
    res.setHeader('Request-Id', requestId);
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    // A strict Portal's error bodies carry a property of their own (profiles/strict.ts).
    const shaped = (reply: Reply) => (options.profile === 'strict' ? strictErrorReply(reply, sb.urls.origin) : reply);
    const finish = (reply: Reply) => {
      reply = shaped(reply);
      if (req.method === 'GET' && reply.status === 200 && reply.body !== undefined && reply.etag !== false) {
        const etag = reply.headers?.ETag ?? contentEtag(JSON.stringify(reply.body));
        if (noneMatch(req.headers['if-none-match'], etag)) {
          res.statusCode = 304;
          res.setHeader('ETag', etag);
          res.end();
          return;
        }
        reply = { ...reply, headers: { ...reply.headers, ETag: etag } };
      }
      send(res, reply);
    };
    const work = async (): Promise<Reply | null> => {
      // Faults strike the API, and a transfer only where the faults name its path (a reply lost after an upload).
      const run = url.pathname.startsWith('/v1/')
        ? () => handleApi(sb, router, req, res, url, requestId)
        : url.pathname.startsWith('/transfers/') && controls?.faults.names(url.pathname)
          ? () => handleTransfer(sb, req, url)
          : null;
      if (run) {
        const fault = controls?.faults.decide(url.pathname);
        if (controls && fault) {
          const reply = await controls.applyFault(fault, req, requestId);
          if (reply !== undefined) return reply;
        }
        if (fault?.outcome !== 'drop_after') return run();
        // The operation runs whatever it answers (a refusal too); then the connection goes without the reply.
        await run().catch(() => undefined);
        req.socket.destroy();
        return null;
      }
      if (controls && url.pathname.startsWith(CONTROLS_PREFIX)) {
        return controls.handle(req.method ?? 'GET', url.pathname, async () => {
          const buf = await readBody(req, MAX_CONTROL_BYTES, jsonTooLarge(MAX_CONTROL_BYTES));
          try {
            return buf.length === 0 ? {} : (JSON.parse(buf.toString('utf8')) as unknown);
          } catch {
            throw new SandboxError('invalid_request', 'The request body is not valid JSON.');
          }
        });
      }
      if (url.pathname === '/generated/openapi.json' && req.method === 'GET') return { status: 200, body: publicOpenApi(sb) };
      if (url.pathname.startsWith('/transfers/')) return handleTransfer(sb, req, url);
      if (url.pathname.startsWith('/downloads/')) {
        handleDownload(sb, req, res, url);
        return null;
      }
      if (url.pathname.startsWith('/portal/invitations/')) {
        handleInvitationPage(sb, res, url);
        return null;
      }
      throw new SandboxError('not_found', `No operation at ${url.pathname}; the API lives under /v1/.`);
    };
    work()
      .then((reply) => reply && finish(reply))
      .catch((e: unknown) => {
        if (!res.headersSent) send(res, shaped(errorReply(e, requestId)));
      })
      .finally(() => {
        if (options.log) {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          // The access log (options.log): never headers, bodies or the query string.
          sandboxLog.info({ method: req.method, path: url.pathname, status: res.statusCode, ms: Number(ms.toFixed(1)), request_id: requestId }, 'request');
        }
      });
  });
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const origin = options.publicOrigin ?? `http://${host}:${port}`;
  sb.setOrigin(origin);

  return {
    sandbox: sb,
    server,
    origin,
    baseUrl: `${origin}/v1/`,
    port,
    webhooks,
    controls,
    close: () =>
      new Promise<void>((resolve) => {
        webhooks.stop();
        sb.clock.cancelAll();
        sb.persister.flush();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
