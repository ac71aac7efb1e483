// Property-based inputs for the fuzz suites (tests/integration/fuzz-*.test.ts): what an attacker or a broken
// client sends — malformed JSON, wrong types, huge and deeply nested bodies, odd Unicode, traversal and bad
// percent-encoding in path segments, wrong content types — and the one check every reply must pass.
import fc from 'fast-check';
import { expect } from 'vitest';
import type { z } from 'zod';

/** Inputs per route: FUZZ_RUNS (the longer `npm run fuzz` raises it), else the bounded default of `npm test`. */
export const fuzzRuns = (fallback: number) => Number(process.env.FUZZ_RUNS ?? fallback);
/** The same inputs on every run unless FUZZ_SEED says otherwise, so a failure can be replayed. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261127);

/**
 * Strings a form or an id would never hold: controls, lone surrogates, bidi overrides, combining marks, a run
 * longer than any limit. Short enough for a URL: Node refuses request heads over 16 KiB itself (431), before
 * any code of ours runs, so long values go in bodies (longString).
 */
export const oddString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', 'a\u202eb', '\u2066rtl\u2069', '\ufeff', 'e\u0301\u0301', '𝕏𝕐', '\u2028\u2029', '', 'Ω'.repeat(1_001)),
);
const longString = fc.constantFrom('Ω'.repeat(10_001), 'a'.repeat(70_000));

/** encodeURIComponent refuses lone surrogates; their (invalid) UTF-8 escapes are what a raw client would send. */
const encodeLoosely = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};

/** A path segment as it goes on the wire, already encoded (or deliberately mis-encoded). */
export const pathSegment = fc.oneof(
  fc.constantFrom(
    '..',
    '%2e%2e',
    '..%2F..%2Fetc%2Fpasswd',
    '%2F',
    '%5C..%5Cwindows',
    '%ZZ',
    '%',
    '%E0%A4%A',
    '%C0%AE%C0%AE',
    '%00',
    'a%00b',
    '%E2%80%AE',
    '%ED%A0%80',
    '%F0%9F%98%80',
    '.',
    '~',
    '%20',
    '%2520',
    'app_' + 'x'.repeat(300),
    'x'.repeat(5_000),
  ),
  oddString.map(encodeLoosely),
  fc.string({ maxLength: 20 }).map(encodeLoosely),
);

/** Malformed percent-encodings (an invalid escape, an overlong `.`, a cut multi-byte sequence) every run tries. */
export const MALFORMED_SEGMENTS = ['%ZZ', '%C0%AE', '%E0%A4%A'] as const;

/** JSON with NUL and a lone surrogate in the strings that sign-in and forms read. */
export const NUL_BODY = '{"email":"a\\u0000b@example.com","password":"pw\\u0000","name":"x\\u0000\\ud800","text_input":"\\u0000"}';

/** A query string (without `?`): random pairs, malformed escapes, repeated and bracketed keys, absurd numbers. */
export const queryString = fc.oneof(
  fc.constant(''),
  fc.dictionary(fc.oneof(fc.constantFrom('page_size', 'cursor', 'business_id', 'application_id', 'status', 'q', 'filename'), fc.string({ maxLength: 8 })), oddString, { maxKeys: 3 })
    .map((d) => { const q = new URLSearchParams(); for (const [k, v] of Object.entries(d)) q.append(k, v.replace(/[\ud800-\udfff]/g, '?')); return q.toString(); }),
  fc.constantFrom('%ZZ=1', 'a=%ZZ', 'page_size=-1', 'page_size=1e400', 'page_size=NaN', 'cursor=%00', 'business_id[]=x', 'a=1&a=2', 'page_size=1&page_size=2', '&&&', '=x'),
);

export const CONTENT_TYPES = [
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----fuzz',
  'application/xml',
  'application/octet-stream',
  'application/json; charset=iso-8859-1',
  '*/*',
] as const;

/** Keys the app's and the Portal's bodies use, so wrong types meet the fields that read them. */
const BODY_KEYS = [
  'answers', 'answers_revision', 'value', 'block_key', 'schema_key', 'field_key', 'email', 'password', 'name',
  'stage_id', 'expected_revision', 'text_input', 'mode', 'business_id', 'project_id', 'match_id', 'recipient_id',
  'expected_preparation_revision', 'contact', 'filename', 'content_type', 'size', 'items', 'force', 'reason',
];

const wrongValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), oddString, longString, fc.constantFrom(-1, 1e308, -0, 2 ** 53 + 1, 1.5, true, null, [], {}));

/** 1.2 MB of valid JSON, and arrays nested 5,000 deep (valid JSON too). */
const HUGE = JSON.stringify({ name: 'x'.repeat(1_200_000) });
const DEEP = '['.repeat(5_000) + ']'.repeat(5_000);
const DEEP_OBJECT = '{"answers":'.repeat(2_000) + '1' + '}'.repeat(2_000);

/** A request body as bytes or text on the wire. */
export const requestBody: fc.Arbitrary<string | Uint8Array | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...BODY_KEYS), fc.string({ maxLength: 6 })), wrongValue, { maxKeys: 5 }).map((o) => JSON.stringify(o)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  { weight: 2, arbitrary: fc.constantFrom('{', '{"a":', '[1,2', 'nul', '{"a":1}}', "{'a':1}", '\u0000', '', ' ', '{"answers_revision": 1e999}', '{"__proto__": {"x": 1}}', '{"constructor": {"prototype": {}}}') },
  { weight: 1, arbitrary: fc.string({ maxLength: 64 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom(HUGE, DEEP, DEEP_OBJECT) },
);

/** What a fuzzed call answered, read whole (a stream is cancelled after its head). */
export interface FuzzReply {
  status: number;
  contentType: string;
  text: string;
}

/** Sends raw: no client-side JSON encoding, so malformed bodies and headers reach the server as written. */
export async function sendRaw(url: string, init: { method: string; headers: Record<string, string>; body?: string | Uint8Array }): Promise<FuzzReply> {
  const bodyAllowed = init.method !== 'GET' && init.method !== 'HEAD';
  const res = await fetch(url, {
    method: init.method,
    headers: init.headers,
    body: bodyAllowed ? (init.body as BodyInit | undefined) : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  });
  const contentType = res.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, contentType, text: '' };
  }
  return { status: res.status, contentType, text: await res.text() };
}

/** Zero 5xx, and every refusal a 4xx in the documented error shape (JSON, a code and a message). */
export function expectCleanReply(reply: FuzzReply, errorBody: z.ZodType, where: () => string) {
  expect(reply.status, where()).toBeLessThan(500);
  if (reply.status < 400) return;
  expect(reply.contentType, where()).toMatch(/^application\/json/);
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.text);
  } catch {
    throw new Error(`${where()}: the ${reply.status} body is not JSON`);
  }
  const shape = errorBody.safeParse(parsed);
  expect(shape.success, `${where()}: ${reply.text.slice(0, 300)}`).toBe(true);
  const error = (parsed as { error: { code: string; message: string } }).error;
  expect(error.code.length, where()).toBeGreaterThan(0);
  expect(error.message.length, where()).toBeGreaterThan(0);
}

/** How many inputs each route met, printed by the suites at the end. */
export class FuzzTally {
  private readonly counts = new Map<string, number>();
  add(route: string) {
    this.counts.set(route, (this.counts.get(route) ?? 0) + 1);
  }
  print(title: string) {
    const rows = [...this.counts].sort(([a], [b]) => a.localeCompare(b));
    const total = rows.reduce((n, [, c]) => n + c, 0);
    process.stdout.write(`${title}: ${total} inputs over ${rows.length} routes (seed ${FUZZ_SEED})\n${rows.map(([r, c]) => `  ${String(c).padStart(5)}  ${r}\n`).join('')}`);
  }
}

/**
 * fc.assert with the run's seed and a short report: a counterexample holding a megabyte body would flood the
 * output, so the message is cut (the seed and path replay it in full).
 */
export async function assertFuzz<T>(arbitrary: fc.Arbitrary<T>, property: (input: T) => Promise<void>, numRuns: number, examples: readonly T[] = []) {
  await fc.assert(fc.asyncProperty(arbitrary, property), {
    numRuns,
    seed: FUZZ_SEED,
    // Known attacks run on every seed, before the generated inputs.
    examples: examples.map((e) => [e] as [T]),
    asyncReporter: async (details) => {
      if (!details.failed) return;
      const cut = (t: string, n: number) => (t.length > n ? `${t.slice(0, n)}… (cut)` : t);
      const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      throw new Error(`${cut(cause, 2_000)}\n${cut(fc.defaultReportMessage(details) ?? 'failed', 3_000)}`);
    },
  });
}

/** Shows a body in a failure message without megabytes of it. */
export const describeBody = (b: string | Uint8Array | undefined) =>
  b === undefined ? 'no body' : typeof b === 'string' ? JSON.stringify(b.length > 120 ? `${b.slice(0, 120)}… (${b.length} chars)` : b) : `${b.length} bytes`;
