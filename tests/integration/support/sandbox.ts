import { afterAll, beforeAll } from 'vitest';
import type { z } from 'zod';
import { ErrorBody, type Permission } from '@/lib/portal';
import { DEMO_KEYS, type ApiKeyDef } from '@/server/sandbox/keys';
import type { SandboxOptions } from '@/server/sandbox/options';
import { startSandbox, type RunningSandbox } from '@/server/sandbox/server';
import { JsonClient, readReply, type Reply } from './json-client';

export const KEYS = {
  full: DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token,
  source: DEMO_KEYS.find((k) => k.id === 'key_demosource')!.token,
  readonly: DEMO_KEYS.find((k) => k.id === 'key_demoreadonly')!.token,
  live: DEMO_KEYS.find((k) => k.id === 'key_demolive')!.token,
};

export type Res<T = unknown> = Reply<T>;

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  ifMatch?: string;
  idempotencyKey?: string;
}

/** A small HTTP client for conformance tests: absolute URLs or paths below /v1/. */
export class SandboxClient extends JsonClient<CallOptions> {
  constructor(
    readonly running: RunningSandbox,
    readonly defaultKey: string = KEYS.full,
  ) {
    super();
  }

  get baseUrl() {
    return this.running.baseUrl;
  }

  url(pathOrUrl: string) {
    return pathOrUrl.startsWith('http') ? pathOrUrl : `${this.running.baseUrl}${pathOrUrl.replace(/^\//, '')}`;
  }

  async call<T = unknown>(method: string, pathOrUrl: string, o: CallOptions = {}): Promise<Res<T>> {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.key === undefined ? this.defaultKey : o.key;
    if (key) headers.Authorization = `Bearer ${key}`;
    if (o.ifMatch) headers['If-Match'] = o.ifMatch;
    if (o.idempotencyKey) headers['Idempotency-Key'] = o.idempotencyKey;
    if (o.body !== undefined) headers['Content-Type'] = 'application/json';
    const r = await fetch(this.url(pathOrUrl), {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    return readReply<T>(r);
  }

  /** GET and parse with a lib/portal schema (strict: fails on any extra property). */
  async read<S extends z.ZodType>(schema: S, p: string, o?: CallOptions): Promise<{ res: Res; data: z.output<S> }> {
    const res = await this.get(p, o);
    if (res.status !== 200) throw new Error(`GET ${p} → ${res.status}: ${res.text}`);
    return { res, data: schema.parse(res.body) };
  }
}

/** Asserts an error reply has the DESIGN.md §5 shape and the expected status and code; returns its body. */
export function expectError(res: Res, status: number, code: string) {
  if (res.status !== status) throw new Error(`expected ${status} ${code}, got ${res.status}: ${res.text}`);
  const body = ErrorBody.parse(res.body);
  if (body.error.code !== code) throw new Error(`expected code ${code}, got ${body.error.code}: ${res.text}`);
  if (body.error.request_id !== res.headers.get('request-id')) throw new Error('request_id must equal the Request-Id header');
  return body.error;
}

/** Starts a fresh sandbox (on a free loopback port) for the tests of one file. */
export function setupSandbox(options: Partial<SandboxOptions> = {}) {
  const ctx = {} as { running: RunningSandbox; client: SandboxClient };
  beforeAll(async () => {
    ctx.running = await startSandbox({ port: 0, rateLimit: null, ...options });
    ctx.client = new SandboxClient(ctx.running);
  });
  afterAll(async () => {
    await ctx.running?.close();
  });
  return ctx;
}

let counter = 0;
export const newKey = (label = 'test') => `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** A test key of the portal kind holding only these permissions (its id and token made from its name's letters). */
export const keyWith = (name: string, permissions: Permission[]): ApiKeyDef => ({
  id: `key_${name.replace(/[^a-z]/g, '')}`,
  token: `pk_test_${name.replace(/[^a-z]/g, '')}_0123456789`,
  kind: 'portal',
  environment: 'test',
  permissions,
  channel_slugs: [],
  label: name,
});
