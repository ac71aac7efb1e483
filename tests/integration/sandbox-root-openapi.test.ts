import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiRoot, PERMISSIONS } from '@/lib/portal';
import { routes } from '@/server/sandbox/handlers';
import { KEYS, expectError, setupSandbox } from './support/sandbox';

/** The parts of an OpenAPI 3.1 document the tests look at; anything else may be present. */
const Operation = z.looseObject({
  operationId: z.string().min(1),
  summary: z.string().min(1),
  tags: z.array(z.string()).min(1),
  'x-permissions': z.array(z.enum(PERMISSIONS)),
  parameters: z.array(
    z.looseObject({ name: z.string(), in: z.enum(['path', 'query', 'header']), required: z.boolean(), schema: z.record(z.string(), z.unknown()) }),
  ),
  responses: z.record(
    z.string(),
    z.looseObject({ description: z.string(), content: z.looseObject({ 'application/json': z.looseObject({ schema: z.record(z.string(), z.unknown()) }) }) }),
  ),
});
const OpenApiDoc = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string() }),
  servers: z.array(z.looseObject({ url: z.url() })).length(1),
  paths: z.record(z.string().regex(/^\//), z.partialRecord(z.enum(['get', 'post', 'patch', 'put', 'delete']), Operation)),
  components: z.looseObject({
    securitySchemes: z.looseObject({ bearer: z.looseObject({ type: z.literal('http'), scheme: z.literal('bearer') }) }),
    schemas: z.looseObject({ Error: z.record(z.string(), z.unknown()) }),
  }),
});
type OpenApiDoc = z.infer<typeof OpenApiDoc>;

/** "METHOD /path" for every operation of a document. */
const operationsOf = (doc: OpenApiDoc) =>
  Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();

const ALL_OPERATIONS = routes.map((r) => `${r.method} /${r.path.replace(/:([a-z_]+)/g, '{$1}')}`).sort();

describe('API root', () => {
  const ctx = setupSandbox();

  it('describes the Portal, the environment and the full key', async () => {
    const { data, res } = await ctx.client.read(ApiRoot, '');
    expect(data).toEqual({
      object: 'api_root',
      portal: { id: 'portal_demo', name: 'Northwind Capital (demo)' },
      environment: 'test',
      key: {
        id: 'key_demofull',
        kind: 'portal',
        permissions: [
          'businesses:read',
          'businesses:write',
          'applications:read',
          'applications:write',
          'autofill:write',
          'deals:read',
          'deals:write',
          'people:read',
          'projects:read',
          'projects:write',
        ],
        channel_slugs: [],
      },
    });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('describes the read-only key and the source key', async () => {
    const { data: ro } = await ctx.client.read(ApiRoot, '', { key: KEYS.readonly });
    expect(ro.key).toEqual({
      id: 'key_demoreadonly',
      kind: 'portal',
      permissions: ['businesses:read', 'applications:read', 'deals:read', 'people:read', 'projects:read'],
      channel_slugs: [],
    });
    const { data: src } = await ctx.client.read(ApiRoot, '', { key: KEYS.source });
    expect(src.key).toEqual({ id: 'key_demosource', kind: 'source', permissions: ['leads:submit'], channel_slugs: ['partner-web', 'broker-network'] });
    // The key's secret value is never echoed.
    expect(JSON.stringify(src)).not.toContain(KEYS.source);
  });

  it('answers at /v1 paths with or without the trailing slash of an operation', async () => {
    expect((await ctx.client.get('businesses')).status).toBe(200);
    expect((await ctx.client.get('businesses/')).status).toBe(200);
  });
});

describe('OpenAPI documents', () => {
  const ctx = setupSandbox();

  it('requires a key for /v1/openapi.json', async () => {
    expectError(await ctx.client.get('openapi.json', { key: null }), 401, 'unauthenticated');
  });

  it('gives the full key every operation it may call, with generated schemas', async () => {
    const res = await ctx.client.get('openapi.json');
    expect(res.status).toBe(200);
    const doc = OpenApiDoc.parse(res.body);
    expect(doc.info.description).toBe('Operations available to the key key_demofull.');
    expect(doc.servers[0]!.url).toBe(ctx.client.baseUrl.replace(/\/$/, ''));
    // The full key lacks only leads:submit, and every operation has another sufficient permission.
    expect(operationsOf(doc)).toEqual(ALL_OPERATIONS);
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('limits the read-only key to reads', async () => {
    const doc = OpenApiDoc.parse((await ctx.client.get('openapi.json', { key: KEYS.readonly })).body);
    const ops = operationsOf(doc);
    expect(ops).toContain('GET /businesses/');
    expect(ops).toContain('GET /client-intake-applications/{id}/answers/');
    expect(ops).not.toContain('POST /businesses/');
    expect(ops.filter((o) => !o.startsWith('GET '))).toEqual([]);
    expect(ops).toEqual(ALL_OPERATIONS.filter((o) => o.startsWith('GET ')));
    expect(doc.info.description).toBe('Operations available to the key key_demoreadonly.');
  });

  it('limits the source key to creating businesses', async () => {
    const doc = OpenApiDoc.parse((await ctx.client.get('openapi.json', { key: KEYS.source })).body);
    expect(operationsOf(doc)).toEqual(['GET /', 'GET /openapi.json', 'POST /businesses/']);
    const create = doc.paths['/businesses/']!.post!;
    expect(create['x-permissions']).toEqual(['businesses:write', 'leads:submit']);
    expect(create.parameters).toContainEqual({ name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string', maxLength: 255 } });
    expect(Object.keys(create.responses).sort()).toEqual(['201', 'default']);
  });

  it('serves the public document at /generated/openapi.json without a key, listing everything', async () => {
    const res = await fetch(`${ctx.running.origin}/generated/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    const doc = OpenApiDoc.parse(await res.json());
    expect(doc.info.description).toBe('Every operation of the Portal Integration REST API as the sandbox implements it.');
    expect(operationsOf(doc)).toEqual(ALL_OPERATIONS);
    expect(operationsOf(doc)).toContain('POST /businesses/{id}/stage-transitions/');
    // x-permissions are the routes' own.
    for (const r of routes) {
      const op = doc.paths[`/${r.path.replace(/:([a-z_]+)/g, '{$1}')}`]![r.method.toLowerCase() as 'get']!;
      expect(op['x-permissions']).toEqual(r.access === 'any' ? [] : r.access);
    }
  });

  it('generates the response schemas from the zod resource schemas', async () => {
    const doc = OpenApiDoc.parse(await (await fetch(`${ctx.running.origin}/generated/openapi.json`)).json());
    const list = doc.paths['/businesses/']!.get!;
    const schema = list.responses['200']!.content['application/json'].schema as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(schema.required.sort()).toEqual(['items', 'next_cursor', 'object', 'previous_cursor']);
    expect(schema.properties.next_cursor).toEqual({ type: ['string', 'null'] });
    expect(schema.properties.object).toEqual({ type: 'string', const: 'list' });
    expect(schema.additionalProperties).toBe(false);
    expect(schema).not.toHaveProperty('$schema');
    const item = (schema.properties.items as { items: { properties: Record<string, unknown> } }).items;
    expect(item.properties.id).toEqual({ type: 'string', pattern: '^biz_[a-z0-9]+$' });
    // Query parameters come from the strict query schema.
    expect(list.parameters).toEqual([
      { name: 'page_size', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } },
      { name: 'cursor', in: 'query', required: false, schema: { type: 'string', minLength: 1 } },
    ]);
    // Stage transitions document both preconditions.
    const move = doc.paths['/businesses/{id}/stage-transitions/']!.post!;
    expect(move.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['id', 'path', true],
      ['Idempotency-Key', 'header', true],
      ['If-Match', 'header', true],
    ]);
    // Error replies refer to the shared error schema.
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] });
    expect(list.responses.default!.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('does not serve the public document for other methods', async () => {
    const res = await fetch(`${ctx.running.origin}/generated/openapi.json`, { method: 'POST' });
    expect(res.status).toBe(404);
  });
});
