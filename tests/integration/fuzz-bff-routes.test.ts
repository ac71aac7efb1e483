import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffErrorBody } from '@/lib/bff/errors';
import { BffClient, bffStack, clientSessionFor, signedIn } from './support/bff';
import { HEADER_VARIANTS } from './support/header-variants';
import { callPath, catalogCalls, routeFixtures, segmentValues, type CatalogCall, type RouteFixtures } from './support/route-catalog';
import { CONTENT_TYPES, FuzzTally, MALFORMED_SEGMENTS, NUL_BODY, assertFuzz, describeBody, expectCleanReply, fuzzRuns, pathSegment, queryString, requestBody, sendRaw } from '../support/fuzz';

/*
 * Every route of the app, from the route catalog (a new route is fuzzed from day one), called
 * signed out and with each role's real session, with property-based paths, queries, bodies, content types and
 * headers: zero 5xx, every refusal a 4xx in the documented error shape { error: { code, message, request_id,
 * details } }. Real ids stand in every segment but the one an input replaces, so inputs get past the lookups.
 */

const RUNS = fuzzRuns(8);
type Role = 'signed out' | 'staff' | 'reviewer' | 'client';
const ROLES: readonly Role[] = ['signed out', 'staff', 'reviewer', 'client'];

const tally = new FuzzTally();
let fixtures: RouteFixtures;
const sessions = new Map<Role, Promise<BffClient>>();

function newSession(role: Role): Promise<BffClient> {
  if (role === 'signed out') return Promise.resolve(new BffClient());
  if (role === 'client') return clientSessionFor(fixtures.a.applicationId);
  return signedIn(role).then((s) => s.client);
}

function session(role: Role): Promise<BffClient> {
  let s = sessions.get(role);
  if (!s) sessions.set(role, (s = newSession(role)));
  return s;
}

beforeAll(async () => {
  const { client: staff } = await signedIn('staff');
  fixtures = await routeFixtures(staff);
}, 120_000);
afterAll(() => tally.print('BFF route fuzz'));

const input = fc.record({
  role: fc.constantFrom(...ROLES),
  replace: fc.option(fc.record({ index: fc.nat(), value: pathSegment }), { freq: 2 }),
  query: fc.option(queryString, { freq: 3 }),
  body: requestBody,
  contentType: fc.constantFrom(...CONTENT_TYPES),
  csrf: fc.boolean(),
  ifMatch: fc.option(fc.constantFrom('*', '"x"', 'W/"answers-0"', '\u00ff', 'garbage, "y"')),
  idempotencyKey: fc.option(fc.constantFrom('k', 'k'.repeat(300), 'fuzz key')),
  // A file name (X-Filename once let any request skip proxy.ts) and forged forwarding headers, on every route.
  extra: fc.constantFrom(...HEADER_VARIANTS.map(([, headers]) => headers)),
});
type Input = typeof input extends fc.Arbitrary<infer T> ? T : never;

/** Tried on every run: malformed percent-encoding in each route's first segment, and NUL in a body, as each role. */
function knownAttacks(call: CatalogCall): Input[] {
  const plain = { query: null, contentType: 'application/json' as const, csrf: true, ifMatch: null, idempotencyKey: null, extra: {} };
  const segments = call.route.params.length > 0 ? MALFORMED_SEGMENTS.map((value) => ({ index: 0, value })) : [];
  return ROLES.flatMap((role) => [
    ...segments.map((replace) => ({ ...plain, role, replace, body: '{}' })),
    { ...plain, role, replace: null, body: NUL_BODY },
    ...HEADER_VARIANTS.map(([, extra]) => ({ ...plain, role, replace: null, body: '{}', extra })),
    ...segments.map((replace) => ({ ...plain, role, replace, body: '{}', extra: HEADER_VARIANTS[3]![1] })),
  ]);
}

/** The call's path with real ids, one segment perhaps replaced by a raw (possibly malformed) one, and its query. */
function urlOf(call: CatalogCall, i: Input) {
  const values = segmentValues(call.route, fixtures, fixtures.a);
  const well = callPath(call, values);
  const [path, wellQuery] = well.split('?');
  const segments = path!.split('/');
  const dynamic = call.route.pattern
    .split('/')
    .map((s, n) => (s.startsWith('[') ? n : -1))
    .filter((n) => n >= 0);
  if (i.replace && dynamic.length > 0) segments[dynamic[i.replace.index % dynamic.length]!] = i.replace.value;
  const query = i.query ?? wellQuery ?? '';
  return `${bffStack().url}${segments.join('/')}${query ? `?${query}` : ''}`;
}

/**
 * Whether a URL still names the route after the client's URL parser: a raw `..` or `%2e%2e` segment is resolved
 * before sending (RFC 3986 §5.2.4), so that input reaches another path (Next's page for an unknown one), and only
 * "no 5xx" applies to it.
 */
function namesRoute(call: CatalogCall, url: string) {
  const pattern = call.route.pattern
    .split('/')
    .map((s) => (s.startsWith('[...') ? '.+' : s.startsWith('[') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}$`).test(new URL(url).pathname);
}

describe.concurrent('fuzzing every route of the app', () => {
  for (const call of catalogCalls()) {
    it(call.key, { timeout: 180_000 }, async () => {
      await assertFuzz(
        input,
        async (i) => {
          tally.add(call.key);
          const client = await session(i.role);
          const headers: Record<string, string> = { Accept: 'application/json', ...i.extra };
          if (client.cookies.size) headers.Cookie = client.cookieHeader();
          if (i.csrf && call.method !== 'GET') Object.assign(headers, { 'X-CSRF': '1', Origin: client.base });
          if (i.contentType) headers['Content-Type'] = i.contentType;
          if (i.ifMatch) headers['If-Match'] = i.ifMatch;
          if (i.idempotencyKey) headers['Idempotency-Key'] = i.idempotencyKey;
          const url = urlOf(call, i);
          const reply = await sendRaw(url, { method: call.method, headers, body: i.body });
          // Signing out ends the shared session: the next input of that role gets a new one.
          if (call.key === 'POST /api/auth/sign-out' && reply.status < 300) sessions.delete(i.role);
          const where = () => `${call.method} ${url.slice(0, 200)} ${i.role}, ${i.contentType ?? 'no content type'}, ${describeBody(i.body)}`;
          // The invitation link is opened by a browser: its refusals are pages (a redirect, or the 400 page of a
          // malformed address), not JSON. Everything under /api answers in the documented error shape.
          if (namesRoute(call, url) && call.route.pattern.startsWith('/api/')) expectCleanReply(reply, BffErrorBody, where);
          else expect(reply.status, where()).toBeLessThan(500);
        },
        RUNS,
        knownAttacks(call),
      );
    });
  }
});
