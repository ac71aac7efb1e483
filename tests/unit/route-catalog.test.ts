import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Endpoint } from '@/lib/api/endpoint';
import { api, formApi } from '@/lib/api/endpoints';
import { FORM_BASES } from '@/lib/api/form-base';
import { REPO_ROOT, catalogCalls, exportedMethods, routeCatalog } from '../integration/support/route-catalog';

/** Every endpoint of lib/api/endpoints.ts as `METHOD /pattern`, the form's once per application-like resource. */
function endpointKeys(): string[] {
  const keys: string[] = [];
  const walk = (o: unknown) => {
    const e = o as Endpoint;
    if (typeof e.method === 'string' && typeof e.path === 'string') {
      // A project's criteria have the reads and the answers only (no items, files or submit).
      const readsAndAnswers = /^\{form\}(\/(contract|form|answers))?$/.test(e.path);
      const bases = !e.path.startsWith('{form}') ? [''] : readsAndAnswers ? Object.values(FORM_BASES) : [FORM_BASES.intake, FORM_BASES.deal];
      for (const base of bases) keys.push(`${e.method} ${base}${e.path.replace('{form}', '')}`);
    } else if (o && typeof o === 'object') Object.values(o).forEach(walk);
  };
  walk(api);
  walk(formApi);
  return keys.sort();
}

/* The security suites cover the routes the catalog finds: it must find every method a route file exports. */

describe('exportedMethods', () => {
  it('reads declared, listed and destructured exports', () => {
    expect(exportedMethods('export const GET = route({}, handler);\nexport async function POST() {}')).toEqual(['GET', 'POST']);
    expect(exportedMethods('export { handler as PATCH, DELETE };')).toEqual(['PATCH', 'DELETE']);
    expect(exportedMethods('export const { GET, PATCH } = dealApplicationRoutes.answers;')).toEqual(['GET', 'PATCH']);
    expect(exportedMethods('export const {\n  POST,\n  DELETE,\n} = routes.item;')).toEqual(['POST', 'DELETE']);
  });

  it('names what a destructuring exports, not what it reads', () => {
    expect(exportedMethods('export const { GET: read, POST: PUT } = routes.thing;')).toEqual(['PUT']);
    expect(exportedMethods('export const { GET = fallback } = routes.thing;')).toEqual(['GET']);
  });

  it('ignores what is not exported', () => {
    expect(exportedMethods('const { GET } = routes.thing;\n// export const { POST } = routes.other;\nconst PATCH = 1;')).toEqual([]);
  });
});

describe('the catalog of the app', () => {
  it('finds a method in every route file', () => {
    for (const r of routeCatalog()) expect(r.methods.length, r.file).toBeGreaterThan(0);
    expect(catalogCalls().length).toBeGreaterThanOrEqual(65);
  });

  it('gives deal applications the routes of an intake application, method for method', () => {
    const below = (prefix: string) =>
      catalogCalls()
        .filter((c) => c.route.pattern.startsWith(prefix))
        .map((c) => `${c.method} ${c.route.pattern.slice(prefix.length)}`);
    const intake = below('/api/applications/[applicationId]');
    const deal = below('/api/deal-applications/[dealApplicationId]');
    expect(deal.length).toBe(15);
    for (const call of deal) expect(intake).toContain(call);
  });
});

describe('the route table (lib/api/endpoints.ts)', () => {
  it('names every method of every route file, and nothing else: a route renamed or moved is renamed there too', () => {
    expect(endpointKeys()).toEqual(catalogCalls().map((c) => c.key).sort());
  });

  it('is what every route file is made from: each one re-exports the methods of a route module', () => {
    for (const r of routeCatalog()) {
      const source = readFileSync(join(REPO_ROOT, r.file), 'utf8');
      if (r.pattern.startsWith('/invite/')) continue;
      const code = source.replace(/^\s*\/\/.*$/gm, '').replace(/^import .*$/gm, '').replace(/^export const dynamic = .*$/gm, '').trim();
      expect(code, r.file).toMatch(/^export const \{ [A-Z, ]+ \} = \w+\.\w+;$/);
    }
  });
});
