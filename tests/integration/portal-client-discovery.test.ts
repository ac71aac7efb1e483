// The Portal client against a scripted upstream that publishes its own /openapi.json: operations and query
// parameters are used only where the document lists them, page_size is fitted to it, and a Portal that refuses
// page_size anyway is asked again without it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { portalCapabilities, portalRequest, readFilteredPage, routes } from '@/server/portal';
import { holdCapabilities } from '@/server/portal/capability-state';
import { missingConstructedPaths } from '@/server/portal/discovery';
import { PortalCapabilities } from '@/server/portal/openapi-index';
import { loopbackServer } from './support/loopback';
import { portalCapture } from './support/portal-capture';

const SENTINEL = 'SENTINEL-key-discovery-5e4d3c2b1a';
const capture = portalCapture(SENTINEL, 'portal-discovery-test-session-secret-0123456789');

const Page = z.strictObject({
  object: z.literal('list'),
  items: z.array(z.looseObject({ id: z.string(), status: z.string().optional() })),
  next_cursor: z.string().nullable(),
  previous_cursor: z.string().nullable(),
});

const q = (name: string, schema: object = { type: 'string' }) => ({ name, in: 'query', schema });
/** A Portal that offers little: businesses (page_size at most 20), answers (no page_size), suggestions (no status filter). */
const DOCUMENT = {
  openapi: '3.1.0',
  servers: [{ url: '/v1' }],
  paths: {
    '/': { get: {} },
    '/openapi.json': { get: {} },
    '/businesses/': { get: { parameters: [q('page_size', { type: 'integer', maximum: 20 }), q('cursor')] } },
    '/businesses/{id}/status/': { get: {} },
    '/answers/': { get: { parameters: [q('cursor')] } },
    '/runs/{id}/suggestions/': { get: { parameters: [q('page_size', { type: 'integer' }), q('cursor')] } },
  },
};

const seen: string[] = [];
let script: (req: IncomingMessage, res: ServerResponse) => void;
let upstream: Awaited<ReturnType<typeof loopbackServer>>;

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${seen.length}` });
  res.end(JSON.stringify(body));
}
const page = (items: object[], next: string | null = null) => ({ object: 'list', items, next_cursor: next, previous_cursor: null });

beforeAll(async () => {
  upstream = await loopbackServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/v1/openapi.json') return json(res, 200, DOCUMENT);
    script(req, res);
  });
  capture.configure(upstream.baseUrl);
  // The capture's log sink and environment, with no sandbox: this upstream is the Portal.
  await capture.start('unused');
  capture.configure(upstream.baseUrl);
});

afterAll(async () => {
  holdCapabilities(PortalCapabilities.specOnly(new URL(upstream.baseUrl)), false, 0);
  await Promise.all([capture.stop(), upstream.close()]);
});

beforeEach(() => {
  seen.length = 0;
});

describe("what the Portal's document lists", () => {
  it('is read once and kept; the paths the app constructs that it lacks are named', async () => {
    const caps = await portalCapabilities();
    await portalCapabilities();
    expect(seen.filter((u) => u === '/v1/openapi.json')).toHaveLength(1);
    expect(caps.source).toBe('document');
    const missing = missingConstructedPaths(caps).map((m) => `${m.method} ${m.template}`);
    expect(missing).toContain('GET business-pipelines/');
    expect(missing).toContain('GET deals/');
    expect(missing).not.toContain('GET businesses/{id}/status/');
  });

  it("caps page_size at the document's maximum, and leaves it out where the operation does not list it", async () => {
    script = (_req, res) => json(res, 200, page([]));
    await portalRequest({ path: routes.businesses(), query: { page_size: 100 }, schema: Page });
    await portalRequest({ url: `${upstream.baseUrl}answers/`, query: { page_size: 500, cursor: 'c1' }, schema: Page });
    expect(seen).toEqual(['/v1/businesses/?page_size=20', '/v1/answers/?cursor=c1']);
  });

  it('applies a filter the operation does not list here, after reading every page, instead of sending it', async () => {
    script = (req, res) => {
      if (req.url!.includes('cursor=p2')) return json(res, 200, page([{ id: 's3', status: 'pending' }]));
      json(res, 200, page([{ id: 's1', status: 'pending' }, { id: 's2', status: 'accepted' }], 'p2'));
    };
    const res = await readFilteredPage({ url: `${upstream.baseUrl}runs/afrun_1/suggestions/`, schema: Page, query: { status: 'pending', page_size: 10 } });
    expect(res.data.items.map((s) => s.id)).toEqual(['s1', 's3']);
    expect(res.data.next_cursor).toBeNull();
    expect(seen.every((u) => !u.includes('status='))).toBe(true);
  });

  it('asks again without page_size when a Portal refuses it with 400, and then never sends it on that operation', async () => {
    holdCapabilities(PortalCapabilities.specOnly(new URL(upstream.baseUrl)), false, 60_000);
    let refusals = 0;
    script = (req, res) => {
      if (req.url!.includes('page_size')) {
        refusals += 1;
        return json(res, 400, { error: { code: 'invalid_request', message: 'No such parameter.', request_id: 'r', details: [{ code: 'unknown', message: 'x', parameter: 'page_size' }] } });
      }
      json(res, 200, page([{ id: 'one' }], req.url!.includes('cursor') ? null : 'next'));
    };
    const first = await portalRequest({ url: `${upstream.baseUrl}things/`, query: { page_size: 100 }, schema: Page });
    const second = await portalRequest({ url: `${upstream.baseUrl}things/`, query: { page_size: 100, cursor: first.data.next_cursor }, schema: Page });
    expect(second.data.items).toHaveLength(1);
    expect(refusals).toBe(1);
    expect(seen).toEqual(['/v1/things/?page_size=100', '/v1/things/', '/v1/things/?cursor=next']);
  });

  it('does not drop page_size for a 400 about another parameter', async () => {
    script = (_req, res) =>
      json(res, 400, { error: { code: 'invalid_request', message: 'Bad cursor.', request_id: 'r', details: [{ code: 'bad', message: 'x', parameter: 'cursor' }] } });
    await expect(portalRequest({ url: `${upstream.baseUrl}others/`, query: { page_size: 5, cursor: 'zz' }, schema: Page })).rejects.toMatchObject({ status: 400 });
    expect(seen).toEqual(['/v1/others/?page_size=5&cursor=zz']);
  });
});
