import { describe, expect, it } from 'vitest';
import { ApiRoot, BusinessStagePage, ErrorBody } from '@/lib/portal';
import { routes } from '@/server/portal';
import { CONSTRUCTED_PATHS } from '@/server/portal/constructed-paths';
import { PortalCapabilities } from '@/server/portal/openapi-index';
import { orderedStages } from '@/server/workflows/stages';

const BASE = new URL('https://portal.example/v1/');

const op = (params: unknown[] = []) => ({ responses: {}, parameters: params });
const q = (name: string, schema: object = { type: 'string' }) => ({ name, in: 'query', schema });

describe("the Portal's openapi.json, indexed", () => {
  const doc = {
    openapi: '3.1.0',
    servers: [{ url: 'https://portal.example/v1' }],
    paths: {
      '/businesses/': { get: op([q('page_size', { type: 'integer', maximum: 50 }), q('cursor')]), post: op() },
      '/businesses/{business_id}/status/': { get: op() },
      '/businesses/pipelines/': { get: op() },
      '/deals/': { parameters: [{ $ref: '#/components/parameters/Cursor' }], get: op([q('page_size')]) },
    },
    components: { parameters: { Cursor: q('cursor') } },
  };
  const caps = PortalCapabilities.fromDocument(doc, BASE);

  it('finds operations by path, template or URL from a read, a trailing slash or not', () => {
    expect(caps.has('GET', routes.businesses())).toBe(true);
    expect(caps.has('POST', routes.businesses())).toBe(true);
    expect(caps.has('DELETE', routes.businesses())).toBe(false);
    expect(caps.has('GET', routes.businessStatus('biz_1'))).toBe(true);
    expect(caps.has('GET', 'businesses/{id}/status/')).toBe(true);
    expect(caps.has('GET', 'https://portal.example/v1/businesses/biz_1/status')).toBe(true);
    expect(caps.has('GET', routes.businessPeople('biz_1'))).toBe(false);
    // Another origin's path below the same base path is the same operation; a path outside the base path is none.
    expect(caps.has('GET', 'https://portal.example/other/businesses/')).toBe(false);
  });

  it('prefers a literal segment to a parameter, and a template parameter never matches a literal', () => {
    expect(caps.find('GET', 'businesses/pipelines/')?.template).toBe('businesses/pipelines/');
    expect(caps.has('GET', 'businesses/{id}/')).toBe(false);
  });

  it("lists each operation's query parameters, path-level and $ref'd ones too, and page_size's maximum", () => {
    expect(caps.accepts('GET', routes.businesses(), 'page_size')).toBe(true);
    expect(caps.find('GET', routes.businesses())?.pageSizeMax).toBe(50);
    expect(caps.accepts('GET', routes.deals(), 'cursor')).toBe(true);
    expect(caps.accepts('GET', routes.deals(), 'business_id')).toBe(false);
    expect(caps.find('GET', routes.deals())?.pageSizeMax).toBeNull();
  });

  it('reads paths that carry the base path themselves (a server URL of the origin alone)', () => {
    const bare = PortalCapabilities.fromDocument({ servers: [{ url: 'https://portal.example' }], paths: { '/v1/deals/': { get: op() } } }, BASE);
    expect(bare.has('GET', routes.deals())).toBe(true);
    const none = PortalCapabilities.fromDocument({ paths: { '/deals/': { get: op() } } }, BASE);
    expect(none.has('GET', routes.deals())).toBe(true);
  });

  it('knows only the three fixed paths of spec 4.1 when the document cannot be read', () => {
    const spec = PortalCapabilities.specOnly(BASE);
    expect(spec.source).toBe('spec');
    expect(['', 'openapi.json', 'businesses/'].map((p) => spec.has('GET', p))).toEqual([true, true, true]);
    expect(spec.has('GET', routes.deals())).toBe(false);
  });

  it('has a template for every path routes.ts constructs', () => {
    expect(Object.keys(CONSTRUCTED_PATHS).sort()).toEqual(Object.keys(routes).sort());
    const sample: Record<string, string> = {
      business: routes.business('biz_a'),
      businessStatus: routes.businessStatus('biz_a'),
      deal: routes.deal('deal_a'),
      autofillSuggestionAccept: routes.autofillSuggestionAccept('ciappl_a', 'afsug_b'),
    };
    const all = PortalCapabilities.fromDocument(
      { paths: Object.fromEntries(Object.values(CONSTRUCTED_PATHS).map((p) => [`/${p.template}`, Object.fromEntries(p.methods.map((m) => [m.toLowerCase(), op()]))])) },
      BASE,
    );
    for (const [name, path] of Object.entries(sample)) expect(all.has(CONSTRUCTED_PATHS[name as keyof typeof routes].methods[0]!, path), name).toBe(true);
  });
});

describe('replies where the spec gives no shape', () => {
  it('takes an API root without environment, key id or kind, with unknown permissions and extra properties', () => {
    const root = ApiRoot.parse({ object: 'api_root', portal: { id: 'p', name: 'P' }, key: { permissions: ['businesses:read', 'reports:export'] }, links: {} });
    expect(root.key.permissions).toEqual(['businesses:read', 'reports:export']);
    expect(root.key.channel_slugs).toEqual([]);
    expect(root.environment).toBeUndefined();
  });

  it('takes an error body with properties of its own, keeping the field-level details', () => {
    const body = ErrorBody.parse({
      error: { code: 'validation_failed', message: 'No.', request_id: 'r', documentation_url: 'https://docs/x', details: [{ code: 'c', message: 'm', field_key: 'f', pointer: '/x' }] },
    });
    expect(body.error.details[0]!.field_key).toBe('f');
  });

  it('takes stage items of only {id, name}, in list order, and orders by `order` where every stage has one', () => {
    const page = BusinessStagePage.parse({
      object: 'list',
      items: [
        { id: 'bstg_b', name: 'B' },
        { id: 'bstg_a', name: 'A', colour: 'red' },
      ],
      next_cursor: null,
      previous_cursor: null,
    });
    expect(orderedStages(page.items).map((s) => s.id)).toEqual(['bstg_b', 'bstg_a']);
    expect(orderedStages([{ id: 'x', name: 'X', order: 2 }, { id: 'y', name: 'Y', order: 1 }]).map((s) => [s.id, s.order])).toEqual([
      ['y', 0],
      ['x', 1],
    ]);
  });
});
