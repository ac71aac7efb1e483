import { z } from 'zod';
import { ErrorBody, ERROR_STATUS, MatchRunCompletedEventData, MatchRunFailedEventData, MatchRunProgressEventData, type Permission } from '@/lib/portal';
import type { ApiKeyDef } from '../keys';
import { effectivePermissions } from '../keys';
import type { RouteDef } from '../http/context';
import type { SandboxProfile } from '../options';
import type { Sandbox } from '../sandbox';

type JsonSchema = Record<string, unknown>;
/** JSON Schema 2020-12 (the dialect of OpenAPI 3.1) of a zod schema, without a `$schema` on every embedded schema. */
const toSchema = (s: z.ZodType): JsonSchema => {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(s, { target: 'draft-2020-12', unrepresentable: 'any', io: 'output' }) as JsonSchema;
  return schema;
};

const errorResponse = (description: string) => ({
  description,
  headers: { 'Request-Id': { schema: { type: 'string' } } },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** Query parameters of a route, read from its strict zod query schema. */
function queryParameters(route: RouteDef) {
  if (!route.query) return [];
  const schema = toSchema(route.query) as { properties?: Record<string, JsonSchema> };
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({ name, in: 'query', required: false, schema: s }));
}

/**
 * Webhook events whose `data` has a schema, with the permission a key needs to see them described: the
 * match run events of DESIGN.md §6. A delivery's body is `{ type, timestamp, data }`.
 */
const WEBHOOKS: Array<{ type: string; summary: string; data: z.ZodType; permission: Permission }> = [
  {
    type: 'match_run.progress',
    summary: 'A running match run screened more funders (at most one event a second per run)',
    data: MatchRunProgressEventData,
    permission: 'projects:read',
  },
  { type: 'match_run.completed', summary: 'A match run completed: its matches can be read', data: MatchRunCompletedEventData, permission: 'projects:read' },
  { type: 'match_run.failed', summary: 'A match run failed, with the reason and whether it can be retried', data: MatchRunFailedEventData, permission: 'projects:read' },
];

function webhooksOf(perms: Set<Permission> | null) {
  const visible = WEBHOOKS.filter((w) => !perms || perms.has(w.permission));
  return Object.fromEntries(
    visible.map((w) => [
      w.type,
      {
        post: {
          summary: w.summary,
          description: 'Signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature); retried until a 2xx.',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: toSchema(z.strictObject({ type: z.literal(w.type), timestamp: z.iso.datetime({ offset: true }), data: w.data })),
              },
            },
          },
          responses: { '2XX': { description: 'Received (a duplicate webhook-id too).' } },
        },
      },
    ]),
  );
}

/**
 * The OpenAPI 3.1 document, generated from the routes and the lib/portal zod schemas rather than written
 * by hand. With a key, only the operations that key may call are listed.
 */
function openApiDocument(sb: Sandbox, routes: RouteDef[], key: ApiKeyDef | null) {
  const perms = key ? effectivePermissions(key) : null;
  const visible = routes.filter((r) => !perms || r.access === 'any' || r.access.some((p) => perms.has(p)));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of visible) {
    const path = `/${r.path}`.replace(/:([a-z_]+)/g, '{$1}');
    const params = [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const headers = [
      ...(r.idempotency ? [{ name: 'Idempotency-Key', in: 'header', required: r.idempotency === 'required', schema: { type: 'string', maxLength: 255 } }] : []),
      ...(r.ifMatch
        ? [{ name: 'If-Match', in: 'header', required: r.ifMatch === 'required', schema: { type: 'string' }, ...(r.etag ? { description: r.etag } : {}) }]
        : []),
    ];
    const status = String(r.successStatus ?? 200);
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = {
      operationId: `${r.method.toLowerCase()}_${r.path.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'root'}`,
      summary: r.summary,
      tags: [r.tag],
      'x-permissions': r.access === 'any' ? [] : r.access,
      parameters: [...params, ...queryParameters(r), ...headers],
      ...(r.requestBody ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(r.requestBody) } } } } : {}),
      responses: {
        [status]: {
          description: r.summary,
          headers: { 'Request-Id': { schema: { type: 'string' } }, ETag: { schema: { type: 'string' }, ...(r.etag ? { description: r.etag } : {}) } },
          content: { 'application/json': { schema: toSchema(r.response) } },
        },
        default: errorResponse(`An error: ${Object.keys(ERROR_STATUS).join(', ')}`),
      },
    };
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Portal Integration REST API (sandbox)',
      version: '1',
      description:
        (key ? `Operations available to the key ${key.id}.` : 'Every operation of the Portal Integration REST API as the sandbox implements it.') +
        (sb.options.profile === 'strict' ? ' Strict profile: only what the spec guarantees.' : ''),
    },
    // Paths start with `/`, so the server URL is the base URL without its trailing slash (no `/v1//…`).
    servers: [{ url: sb.urls.base.replace(/\/$/, '') }],
    security: [{ bearer: [] }],
    paths,
    webhooks: webhooksOf(perms),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: toSchema(ErrorBody) },
    },
  };
}

let tables: Record<SandboxProfile, RouteDef[]> = { full: [], strict: [] };
/** The handlers module registers each profile's route table here (avoids an import cycle). */
export const registerRoutesForOpenApi = (byProfile: Record<SandboxProfile, RouteDef[]>) => {
  tables = byProfile;
};

export const publicOpenApi = (sb: Sandbox) => openApiDocument(sb, tables[sb.options.profile], null);

export const openApiRoutes: RouteDef[] = [
  {
    // GET /openapi.json – the description limited to what this key may call
    method: 'GET',
    path: 'openapi.json',
    access: 'any',
    summary: 'Machine-readable description for this key',
    tag: 'root',
    response: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }),
    handle: ({ sb, key }) => ({ status: 200, body: openApiDocument(sb, tables[sb.options.profile], key) }),
  },
];
