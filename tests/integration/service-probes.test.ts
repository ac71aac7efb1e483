import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFreePort } from '../e2e/support/ports';
import { startNextServer, type NextServer } from '../e2e/support/next-server';
import { poller } from '../support/poller';
import { SENTINEL_API_KEY } from '../support/bff-stack';
import { BffClient, bffStack, newUser, stackApplication } from './support/bff';
import { openEventStream } from './support/sse';

/*
 * The probes a load balancer or an orchestrator calls: /api/health says the process answers, /api/ready whether
 * it should get traffic — per check, never waiting on a slow Portal, false while the database cannot be reached.
 */

const until = poller({ timeoutMs: 60_000, everyMs: 200 });

interface ReadyBody {
  ready: boolean;
  phase: string;
  checks: Record<string, { ok: boolean; reason?: string }>;
}

async function probe(base: string, path: '/api/health' | '/api/ready') {
  const started = performance.now();
  const res = await fetch(`${base}${path}`);
  const text = await res.text();
  return { status: res.status, ms: performance.now() - started, text, body: JSON.parse(text) as ReadyBody & { status?: string }, cache: res.headers.get('cache-control') };
}

const instances: NextServer[] = [];
const closers: Array<() => void> = [];
afterAll(async () => {
  await Promise.all(instances.map((s) => s.stop()));
  for (const close of closers) close();
});

async function instanceWith(name: string, env: Record<string, string>) {
  const server = await startNextServer({ env: { ...bffStack().appEnv, ...env }, logFile: join(mkdtempSync(join(tmpdir(), `bff-${name}-`)), 'next.log') });
  instances.push(server);
  return server;
}

describe('the shared instance', () => {
  it('is alive and ready, with each check named and no secret in the reply', async () => {
    const health = await probe(bffStack().url, '/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', phase: 'serving' });
    expect(health.cache).toBe('private, no-store');
    const ready = await until(() => probe(bffStack().url, '/api/ready'), (r) => r.status === 200, 'the instance to be ready');
    expect(ready.body).toMatchObject({ ready: true, phase: 'serving', checks: { database: { ok: true }, portal: { ok: true } } });
    expect(ready.text).not.toContain(SENTINEL_API_KEY);
    expect(ready.text).not.toContain(new URL(bffStack().sandboxBaseUrl).host);
  });
});

describe('an instance whose Portal never answers', () => {
  let server: NextServer;
  beforeAll(async () => {
    // Accepts connections and says nothing: every Portal call runs into its time budget.
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      for (const s of held) s.destroy();
      silent.close();
    });
    const port = (silent.address() as net.AddressInfo).port;
    server = await instanceWith('slow-portal', { PORTAL_BASE_URL: `http://127.0.0.1:${port}/v1/` });
  }, 120_000);

  it('is alive but not ready, and its probe does not wait for the Portal', async () => {
    expect((await probe(server.url, '/api/health')).status).toBe(200);
    const notReady = await until(() => probe(server.url, '/api/ready'), (r) => r.body.checks.portal?.reason === 'upstream_timeout', 'the Portal check to time out');
    expect(notReady.status).toBe(503);
    expect(notReady.body).toMatchObject({ ready: false, checks: { database: { ok: true }, portal: { ok: false, reason: 'upstream_timeout' } } });
    // The Portal check takes 2 s each time it runs; the probe answers from the last verdict meanwhile.
    const times: number[] = [];
    for (let i = 0; i < 20; i++) times.push((await probe(server.url, '/api/ready')).ms);
    expect(Math.max(...times)).toBeLessThan(1_500);
  });
});

describe('an instance whose database cannot be reached', () => {
  let server: NextServer;
  beforeAll(async () => {
    const nothing = await getFreePort();
    server = await instanceWith('no-db', { DATABASE_URL: `postgresql://nobody:nothing@127.0.0.1:${nothing}/none` });
  }, 120_000);

  it('is alive, not ready, and says which check fails', async () => {
    expect((await probe(server.url, '/api/health')).body).toMatchObject({ status: 'ok', phase: 'starting' });
    const ready = await until(() => probe(server.url, '/api/ready'), (r) => r.body.checks.database?.reason === 'unreachable', 'the database check to fail');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ ready: false, phase: 'starting', checks: { database: { ok: false, reason: 'unreachable' } } });
    expect(ready.text).not.toContain('nothing@');
  });
});

describe('metrics', () => {
  const TOKEN = 'metrics-token-of-the-probe-tests';
  let server: NextServer;
  beforeAll(async () => {
    server = await instanceWith('metrics', { METRICS_TOKEN: TOKEN });
  }, 120_000);

  it('do not exist without METRICS_TOKEN', async () => {
    const res = await fetch(`${bffStack().url}/api/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('answer only the token, with route templates and Portal operations as labels, never an id', async () => {
    const anonymous = await fetch(`${server.url}/api/metrics`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await fetch(`${server.url}/api/metrics`, { headers: { Authorization: 'Bearer not-the-token-at-all!' } })).status).toBe(401);

    const { email, password } = await newUser('staff');
    const staff = new BffClient(server.url);
    await staff.signIn(email, password);
    const applicationId = await stackApplication(`Metrics ${Date.now()}`);
    expect((await staff.get(`/api/applications/${applicationId}/answers?page_size=500`)).status).toBe(200);
    const stream = await openEventStream(staff, `application_id=${applicationId}`);
    try {
      const res = await fetch(`${server.url}/api/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await res.text();
      expect(text).toMatch(/bff_http_requests_total\{route="\{form\}\/answers",method="GET",status="200"\} [1-9]/);
      expect(text).toMatch(/bff_http_requests_total\{route="\/api\/auth\/sign-in",method="POST",status="200"\} [1-9]/);
      expect(text).toMatch(/bff_portal_requests_total\{operation="\/v1\/client-intake-applications\/\{id\}\/answers\/",method="GET",status="200"\} [1-9]/);
      expect(text).toMatch(/bff_live_streams [1-9]/);
      expect(text).toContain('process_cpu_seconds_total');
      expect(text).not.toContain(applicationId);
      expect(text).not.toContain(TOKEN);
    } finally {
      stream.close();
    }
  });
});

describe('a bad setting', () => {
  it('stops the server at start with one message naming it', async () => {
    const started = instanceWith('bad-setting', { DRAIN_GRACE_MS: 'soon' });
    await expect(started).rejects.toThrow(/next start exited \(code 1[\s\S]*DRAIN_GRACE_MS: must be a whole number of milliseconds/);
  }, 120_000);
});
