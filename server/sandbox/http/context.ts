import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { ErrorDetail, Permission } from '@/lib/portal';
import type { ApiKeyDef } from '../keys';
import type { Sandbox } from '../sandbox';
import { SandboxError } from './errors';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** false: a GET reply without an ETag (otherwise one is made from the body when the handler set none). */
  etag?: false;
}

export interface Ctx {
  sb: Sandbox;
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  requestId: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  key: ApiKeyDef;
  header(name: string): string | undefined;
  /** If-Match against the resource's current ETag, required or not as the route declares (428 missing, 412 stale). */
  ifMatch(current: string): void;
  /** The raw request body, read once (bounded by maxBytes). */
  rawBody(): Promise<Buffer>;
  /** The JSON body parsed with a schema: 400 for malformed JSON, 422 naming each invalid property. */
  body<S extends z.ZodType>(schema: S): Promise<z.output<S>>;
}

export type Access = Permission[] | 'any';

export interface RouteDef {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path below /v1/, `:name` for a parameter, always ending in `/` (a missing trailing slash is accepted). */
  path: string;
  /** Any one of these permissions is sufficient (spec §5 rule 6). */
  access: Access;
  /** Strict schema of the query: anything else is rejected with 400 naming the parameter. */
  query?: z.ZodType;
  /** Whether an Idempotency-Key is required, accepted or not used. */
  idempotency?: 'required' | 'optional';
  /** Whether If-Match is required or checked when given (the handler checks it against its ETag with ctx.ifMatch). */
  ifMatch?: 'required' | 'optional';
  /** Resource kind for the OpenAPI document. */
  summary: string;
  tag: string;
  /** zod schema of the success body, for the OpenAPI document and conformance tests. */
  response: z.ZodType;
  requestBody?: z.ZodType;
  successStatus?: number;
  /** What the ETag of the reply (and so an If-Match) is, where a client may form it itself (OpenAPI document). */
  etag?: string;
  handle(ctx: Ctx): Promise<Reply> | Reply;
}

export function zodDetails(error: z.ZodError, asParameter = false): ErrorDetail[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((k) => (path ? `${path}.${k}` : k));
      return { code: 'unknown_property', message: `Unknown ${asParameter ? 'parameter' : 'property'}: ${keys.join(', ')}`, parameter: keys[0] };
    }
    return { code: 'invalid', message: path ? `${path}: ${issue.message}` : issue.message, ...(path ? { parameter: path } : {}) };
  });
}

export const bodyError = (error: z.ZodError) =>
  new SandboxError('validation_failed', 'The request body is not valid.', zodDetails(error));
