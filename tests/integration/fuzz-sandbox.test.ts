import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ErrorBody } from '@/lib/portal';
import { routes } from '@/server/sandbox/handlers';
import { startSandbox, type RunningSandbox } from '@/server/sandbox/server';
import { CONTENT_TYPES, FuzzTally, MALFORMED_SEGMENTS, NUL_BODY, assertFuzz, describeBody, expectCleanReply, fuzzRuns, pathSegment, queryString, requestBody, sendRaw } from '../support/fuzz';
import { KEYS } from './support/sandbox';

/*
 * Every sandbox operation, read from its route table (so a new one is fuzzed from day one), with
 * property-based inputs under every kind of key: zero 5xx, every refusal a 4xx in the spec's error shape.
 */

const RUNS = fuzzRuns(16);
const tally = new FuzzTally();
let running: RunningSandbox;

/** Real objects of the seed, so an input can get past the lookup to the body and header checks behind it. */
const REAL: Record<string, string> = {
  businesses: 'biz_bluewave',
  'business-pipelines': 'bpipe_onboarding',
  deals: 'deal_pinecrestbrewhouse',
  'deal-applications': 'dapp_pinecrestbrewhouse',
  'deal-pipelines': 'dpipe_funding',
  projects: 'proj_meridiancnc',
  'project-criteria': 'pcrit_meridiancnc',
  block: 'owners',
};

const AUTH = fc.constantFrom<readonly [string, string | undefined]>(
  ['full key', `Bearer ${KEYS.full}`],
  ['read-only key', `Bearer ${KEYS.readonly}`],
  ['source key', `Bearer ${KEYS.source}`],
  ['live key', `Bearer ${KEYS.live}`],
  ['no key', undefined],
  ['garbage key', 'Bearer pk_test_\u00ff\u00fe'],
  ['basic auth', 'Basic dXNlcjpwYXNz'],
);

const KNOWN = {
  auth: ['full key', `Bearer ${KEYS.full}`] as const,
  replace: null,
  query: '',
  body: '{}' as string | Uint8Array | undefined,
  contentType: 'application/json' as const,
  ifMatch: null,
  idempotencyKey: 'known',
};

beforeAll(async () => {
  running = await startSandbox({ port: 0, rateLimit: null });
  const app = await fetch(`${running.baseUrl}businesses/${REAL.businesses}/status/`, { headers: { Authorization: `Bearer ${KEYS.full}` } });
  REAL['client-intake-applications'] = ((await app.json()) as { application: { id: string } }).application.id;
});
afterAll(async () => {
  await running?.close();
  tally.print('Sandbox fuzz');
});

/** The path with real ids where there are some and made-up well-formed ones elsewhere; one segment maybe replaced. */
function pathOf(template: string, replace: { index: number; value: string } | null) {
  const parts = template.split('/').filter(Boolean);
  const params = parts.map((p, i) => (p.startsWith(':') ? i : -1)).filter((i) => i >= 0);
  const filled = parts.map((p, i) => (p.startsWith(':') ? (REAL[p === ':id' ? parts[i - 1]! : p.slice(1)] ?? `${p.slice(1)}_fuzz1`) : p));
  if (replace && params.length > 0) filled[params[replace.index % params.length]!] = replace.value;
  return `${filled.join('/')}/`;
}

describe.concurrent('fuzzing every sandbox operation', () => {
  for (const route of routes) {
    const name = `${route.method} /v1/${route.path}`;
    it(name, { timeout: 120_000 }, async () => {
      const input = fc.record({
        auth: AUTH,
        replace: fc.option(fc.record({ index: fc.nat(), value: pathSegment }), { freq: 2 }),
        query: queryString,
        body: requestBody,
        contentType: fc.constantFrom(...CONTENT_TYPES),
        ifMatch: fc.option(fc.constantFrom('*', '"x"', 'W/"answers-0"', '\u00ff', 'garbage, "y"')),
        idempotencyKey: fc.option(fc.oneof(fc.string({ minLength: 1, maxLength: 8 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'k')), fc.constant('k'.repeat(300)))),
      });
      await assertFuzz(
        input,
        async (i) => {
          tally.add(name);
          const path = pathOf(route.path, i.replace);
          const headers: Record<string, string> = {};
          if (i.auth[1]) headers.Authorization = i.auth[1];
          if (i.contentType) headers['Content-Type'] = i.contentType;
          if (i.ifMatch) headers['If-Match'] = i.ifMatch;
          if (i.idempotencyKey) headers['Idempotency-Key'] = `${i.idempotencyKey}-${Math.random().toString(36).slice(2)}`;
          const url = `${running.baseUrl}${path}${i.query ? `?${i.query}` : ''}`;
          const reply = await sendRaw(url, { method: route.method, headers, body: i.body });
          expectCleanReply(reply, ErrorBody, () => `${route.method} ${url.slice(0, 200)} as ${i.auth[0]}, ${i.contentType ?? 'no content type'}, ${describeBody(i.body)}`);
        },
        RUNS,
        // Tried on every run: malformed percent-encoding in the first segment, and NUL in a body.
        [
          ...(route.path.includes(':') ? MALFORMED_SEGMENTS.map((value) => ({ ...KNOWN, replace: { index: 0, value } })) : []),
          { ...KNOWN, body: NUL_BODY },
        ],
      );
    });
  }
});
