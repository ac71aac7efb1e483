import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswersPageView } from '@/lib/bff/applications';
import { AnswerPage, BusinessCreateResult } from '@/lib/portal';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { startSandbox, type RunningSandbox } from '@/server/sandbox/server';
import { startNextServer, type NextServer } from '../e2e/support/next-server';
import { SENTINEL_API_KEY } from '../support/bff-stack';
import { poller } from '../support/poller';
import { alive } from '../support/processes';
import { sentinelKey } from '../support/sentinel-key';
import { BffClient, bffStack, newUser } from './support/bff';
import { openEventStream } from './support/sse';
import { setSandboxFaults } from './support/sandbox-faults';

/*
 * An instance stopped the way an orchestrator stops it (SIGTERM) while 50 answer writes are on their way to the
 * Portal and a live stream is open: every write either finishes (acknowledged, and the Portal has it) or is
 * refused before anything happened with a retryable error; the stream is told to reconnect; the process exits
 * on its own. The instance has a Portal of its own (a sandbox in this process), so the latency that holds the
 * writes in flight touches no other test.
 */

const WRITES = 50;
/** Each write is held this long at the Portal: long enough for the signal to arrive while all are in flight. */
const PORTAL_LATENCY_MS = 4_000;
const until = poller({ timeoutMs: 60_000, everyMs: 50 });
const FULL_KEY = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;

let sandbox: RunningSandbox;
let server: NextServer;
let logFile: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: null, controls: true, keys: [...DEMO_KEYS, sentinelKey(SENTINEL_API_KEY, 'Sentinel key of the drain test')] });
  logFile = join(mkdtempSync(join(tmpdir(), 'bff-drain-')), 'next.log');
  server = await startNextServer({ env: { ...bffStack().appEnv, PORTAL_BASE_URL: sandbox.baseUrl, DRAIN_GRACE_MS: '30000' }, logFile });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

async function newApplication(name: string): Promise<string> {
  const res = await fetch(`${sandbox.baseUrl}businesses/`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${FULL_KEY}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return BusinessCreateResult.parse(await res.json()).application.id;
}

/** What the Portal holds for one answer, read from it directly. */
async function storedValue(applicationId: string, key: { block_key: string; schema_key: string; field_key: string }): Promise<unknown> {
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
    const res = await fetch(`${sandbox.baseUrl}client-intake-applications/${applicationId}/answers/${query}`, { headers: { Authorization: `Bearer ${FULL_KEY}` } });
    const page = AnswerPage.parse(await res.json());
    const hit = page.items.find((i) => i.block_key === key.block_key && i.schema_key === key.schema_key && i.field_key === key.field_key);
    if (hit) return hit.value;
    cursor = page.next_cursor;
  } while (cursor);
  return undefined;
}

/** A write's outcome as a browser would see it: a status and code, or no reply at all. */
async function outcome(p: Promise<Response>): Promise<{ status: number; code: string | null; retryAfter: string | null; network?: string }> {
  try {
    const res = await p;
    const text = await res.text();
    const code = res.headers.get('content-type')?.includes('json') ? ((JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null) : null;
    return { status: res.status, code, retryAfter: res.headers.get('retry-after') };
  } catch (e) {
    return { status: 0, code: null, retryAfter: null, network: String((e as { cause?: { code?: string } }).cause?.code ?? e) };
  }
}

describe('SIGTERM during answer writes and a live stream', () => {
  it('finishes what is in flight, refuses what comes after with a retryable error, and loses nothing', { timeout: 240_000 }, async () => {
    const { email, password } = await newUser('staff');
    const staff = new BffClient(server.url);
    await staff.signIn(email, password);
    const tag = randomBytes(3).toString('hex');
    const ids = await Promise.all(Array.from({ length: WRITES }, (_, i) => newApplication(`Drain ${tag} ${i}`)));
    const targets = await Promise.all(
      ids.map(async (id) => {
        const page = AnswersPageView.parse((await staff.get(`/api/applications/${id}/answers?page_size=500`)).body);
        const field = page.items.find((i) => i.value_type === 'string' && i.allowed_values.length === 0)!;
        return { id, etag: page.etag, revision: page.answers_revision, key: { block_key: field.block_key, schema_key: field.schema_key, field_key: field.field_key } };
      }),
    );
    const stream = await openEventStream(staff, `application_id=${ids[0]}`);
    expect(stream.status).toBe(200);

    await setSandboxFaults(sandbox.origin, { latency_ms: PORTAL_LATENCY_MS, paths: ['client-intake-applications/'] });
    const write = (t: (typeof targets)[number], value: string) =>
      fetch(`${server.url}/api/applications/${t.id}/answers`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json', 'X-CSRF': '1', Origin: server.url, Cookie: staff.cookieHeader(), 'If-Match': t.etag },
        body: JSON.stringify({ answers_revision: t.revision, answers: [{ ...t.key, value }] }),
      });
    const writes = targets.map((t, i) => outcome(write(t, `in flight ${tag} ${i}`)));
    // Every write has reached the Portal and is held there.
    await until(
      async () => ((await (await fetch(`${sandbox.origin}/_sandbox/faults`)).json()) as { faults: { counts: { matched: number } } }).faults.counts.matched,
      (matched) => matched >= WRITES,
      'all writes to reach the Portal',
    );

    process.kill(server.pid!, 'SIGTERM');
    // Not ready as soon as the signal is handled, while the writes are still held at the Portal (the signal
    // arrives asynchronously: a probe sent the same instant may still find it serving).
    const ready = await until(
      async () => {
        const res = await fetch(`${server.url}/api/ready`);
        return { status: res.status, body: (await res.json()) as { ready: boolean; phase: string } };
      },
      (r) => r.body.phase === 'draining',
      'readiness to turn false',
      PORTAL_LATENCY_MS,
    );
    const late = await Promise.all(targets.slice(0, 3).map((t, i) => outcome(write(t, `too late ${tag} ${i}`))));

    const results = await Promise.all(writes);
    results.forEach((r, i) => expect(r, `write ${i}`).toMatchObject({ status: 200 }));
    expect(ready).toMatchObject({ status: 503, body: { ready: false, phase: 'draining' } });
    for (const r of late) {
      // Refused before anything happened, in a way the browser repeats: a 503 saying so, or no connection at all.
      if (r.status === 0) expect(r.network).toBe('ECONNREFUSED');
      else expect(r).toMatchObject({ status: 503, code: 'draining', retryAfter: '1' });
    }

    // The stream was told when to come back, then ended by the server.
    await stream.ended;
    expect(stream.raw()).toMatch(/retry: \d+\n: server restarting/);
    await until(async () => alive(server.pid!), (a) => !a, 'the instance to exit');
    const entries = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.find((e) => e.msg === 'draining')).toMatchObject({ signal: 'SIGTERM', grace_ms: 30_000 });
    expect(entries.find((e) => e.msg === 'drained')).toMatchObject({ requests_finished: true, in_flight: 0 });

    await setSandboxFaults(sandbox.origin, null);
    // Nothing lost: each acknowledged write is what the Portal holds, and no refused one changed anything.
    const stored = await Promise.all(targets.map((t) => storedValue(t.id, t.key)));
    stored.forEach((v, i) => expect(v, `application ${i}`).toBe(`in flight ${tag} ${i}`));
  });
});
