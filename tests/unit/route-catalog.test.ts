import { describe, expect, it } from 'vitest';
import { catalogCalls, exportedMethods, routeCatalog } from '../integration/support/route-catalog';

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
    expect(deal.length).toBe(14);
    for (const call of deal) expect(intake).toContain(call);
  });
});
