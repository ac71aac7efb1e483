import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@/server/sandbox/server';
import { createBusiness } from './support/businesses';
import { KEYS, SandboxClient, newKey } from './support/sandbox';

const SECRET_KEY = Buffer.from('integration-test-webhook-secret-0123456789');
const SECRET = `whsec_${SECRET_KEY.toString('base64')}`;
const TOLERANCE_S = 300;

interface Attempt {
  id: string;
  timestamp: number;
  signature: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  /** What the receiver answered. */
  status: number;
  at: number;
}

interface Payload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * A webhook receiver written independently of lib/webhooks: it recomputes the HMAC itself, enforces the timestamp
 * tolerance, refuses forged (400) and replayed (409) deliveries, and can be told to fail attempts.
 */
class Receiver {
  server!: Server;
  url = '';
  /** Every attempt that arrived, in order, with what the receiver answered. */
  readonly attempts: Attempt[] = [];
  /** Accepted deliveries by webhook-id. */
  readonly accepted = new Map<string, Payload>();
  /** Fail (500) the first `failFirst` attempts of every webhook-id. */
  failFirst = 0;
  private readonly seenAttempts = new Map<string, number>();

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const status = this.judge(req.headers, raw);
        const one = (name: string) => String(req.headers[name] ?? '');
        this.attempts.push({
          id: one('webhook-id'),
          timestamp: Number(one('webhook-timestamp')),
          signature: one('webhook-signature'),
          headers: req.headers,
          raw,
          status,
          at: Date.now(),
        });
        res.statusCode = status;
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/portal`;
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  static expected(id: string, ts: string, raw: Buffer) {
    return createHmac('sha256', SECRET_KEY).update(`${id}.${ts}.`).update(raw).digest();
  }

  private judge(h: IncomingHttpHeaders, raw: Buffer): number {
    const id = h['webhook-id'];
    const ts = h['webhook-timestamp'];
    const sig = h['webhook-signature'];
    if (typeof id !== 'string' || typeof ts !== 'string' || typeof sig !== 'string' || !/^\d+$/.test(ts)) return 400;
    if (Math.abs(Math.floor(Date.now() / 1000) - Number(ts)) > TOLERANCE_S) return 400;
    const expected = Receiver.expected(id, ts, raw);
    const ok = sig.split(' ').some((entry) => {
      if (!entry.startsWith('v1,')) return false;
      const given = Buffer.from(entry.slice(3), 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!ok) return 400;
    if (this.accepted.has(id)) return 409; // replay of a delivery already processed
    const n = (this.seenAttempts.get(id) ?? 0) + 1;
    this.seenAttempts.set(id, n);
    if (n <= this.failFirst) return 500;
    this.accepted.set(id, JSON.parse(raw.toString('utf8')) as Payload);
    return 204;
  }

  /** The first accepted delivery of `type` whose data matches, once it has arrived: [webhook-id, payload]. */
  arrival(type: string, match: Record<string, unknown>) {
    return waitFor(`${type} ${JSON.stringify(match)}`, () => this.find(type, match)[0]);
  }

  /** Accepted deliveries of one event type whose data matches. */
  find(type: string, match: Record<string, unknown>) {
    return [...this.accepted.entries()].filter(
      ([, p]) => p.type === type && Object.entries(match).every(([k, v]) => JSON.stringify(p.data[k]) === JSON.stringify(v)),
    );
  }
}

async function waitFor<T>(what: string, fn: () => T | undefined | null | false, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function control(running: RunningSandbox, method: string, path: string, body?: unknown) {
  const r = await fetch(`${running.origin}/_sandbox/${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

interface DeliveryView {
  id: string;
  type: string;
  status: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  data: Record<string, unknown>;
}
const deliveries = async (running: RunningSandbox) =>
  (await control(running, 'GET', 'webhook-deliveries')).body.items as DeliveryView[];

/** Polls the delivery log until a delivery matching `match` reaches `status`. */
async function settled(running: RunningSandbox, status: 'delivered' | 'failed', match: (d: DeliveryView) => boolean = () => true) {
  const until = Date.now() + 10_000;
  for (;;) {
    const d = (await deliveries(running)).find(match);
    if (d?.status === status) return d;
    if (Date.now() > until) throw new Error(`no delivery reached ${status}: ${JSON.stringify(d)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function transition(client: SandboxClient, businessId: string, stageId: string) {
  const status = await client.get(`businesses/${businessId}/status/`);
  return client.post(`businesses/${businessId}/stage-transitions/`, {
    body: { stage_id: stageId },
    ifMatch: status.headers.get('etag')!,
    idempotencyKey: newKey('stage'),
  });
}

describe('webhook deliveries to a verifying receiver', () => {
  const receiver = new Receiver();
  let running: RunningSandbox;
  let client: SandboxClient;

  beforeAll(async () => {
    await receiver.start();
    running = await startSandbox({ port: 0, rateLimit: null, webhookUrl: receiver.url, webhookSecret: SECRET, controls: true });
    client = new SandboxClient(running);
    expect((await control(running, 'PUT', 'clock', { speed: 1000 })).status).toBe(200);
  });
  afterAll(async () => {
    await running?.close();
    await receiver.stop();
  });

  it('delivers business.created, signed, with the business, application and channel ids', async () => {
    const { data } = await createBusiness(client, { name: 'Webhook Widgets Ltd', source_channel_id: 'partner-web' });
    const [id, payload] = await receiver.arrival('business.created', { business_id: data.business.id });
    expect(id).toMatch(/^msg_[A-Za-z0-9]+$/);
    expect(payload).toEqual({
      type: 'business.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: { business_id: data.business.id, application_id: data.application.id, source_channel_id: 'partner-web' },
    });
    const attempt = receiver.attempts.find((a) => a.id === id)!;
    expect(attempt.status).toBe(204);
    expect(attempt.headers['content-type']).toMatch(/^application\/json/);
    expect(Math.abs(attempt.timestamp - Date.now() / 1000)).toBeLessThan(60);

    // A portal key without a channel: source_channel_id is null.
    const other = await createBusiness(client, { name: 'No Channel Co' });
    const [, p2] = await receiver.arrival('business.created', { business_id: other.data.business.id });
    expect(p2.data).toEqual({ business_id: other.data.business.id, application_id: other.data.application.id, source_channel_id: null });

    // A source key's lead is announced too.
    const lead = await createBusiness(client, { name: 'Lead From Broker', source_channel_id: 'broker-network' }, KEYS.source);
    await receiver.arrival('business.created', { business_id: lead.data.business.id, source_channel_id: 'broker-network' });
  });

  it('delivers business.stage_changed with the new stage and revision, once per transition (not for an idempotent replay)', async () => {
    const { data } = await createBusiness(client, { name: 'Stage Movers Ltd' });
    const id = data.business.id;
    const status = await client.get(`businesses/${id}/status/`);
    const idem = newKey('stage');
    const send = () =>
      client.post(`businesses/${id}/stage-transitions/`, { body: { stage_id: 'bstg_qualifying' }, ifMatch: status.headers.get('etag')!, idempotencyKey: idem });
    expect((await send()).status).toBe(200);
    const replay = await send();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await transition(client, id, 'bstg_appinprogress')).status).toBe(200);

    const first = await receiver.arrival('business.stage_changed', { business_id: id, revision: 1 });
    const second = await receiver.arrival('business.stage_changed', { business_id: id, revision: 2 });
    expect(first[1].data).toEqual({
      business_id: id,
      stage: { id: 'bstg_qualifying', name: 'Qualifying' },
      previous_stage: { id: 'bstg_newlead', name: 'New lead' },
      revision: 1,
    });
    expect(second[1].data).toMatchObject({ stage: { id: 'bstg_appinprogress', name: 'Application in progress' }, revision: 2 });
    // Two were published (the log takes each as it is published), not three: the replay published none.
    const published = async () => (await deliveries(running)).filter((d) => d.type === 'business.stage_changed' && d.data.business_id === id);
    expect((await published()).map((d) => d.data.revision)).toEqual([1, 2]);

    // A refused transition (same stage) publishes nothing: the next real one is delivered, and nothing else with it.
    expect((await transition(client, id, 'bstg_appinprogress')).status).toBe(409);
    expect((await transition(client, id, 'bstg_qualifying')).status).toBe(200);
    await receiver.arrival('business.stage_changed', { business_id: id, revision: 3 });
    const revisions = receiver.find('business.stage_changed', { business_id: id }).map(([, p]) => p.data.revision as number);
    expect(revisions.sort()).toEqual([1, 2, 3]);
    expect((await published()).map((d) => d.data.revision)).toEqual([1, 2, 3]);
  });

  it('drops what is published while paused (never sent, logged as dropped), and sends again once resumed', async () => {
    const paused = await control(running, 'PUT', 'webhooks', { paused: true });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ object: 'sandbox_webhooks', paused: true, url: receiver.url });
    let lostId = '';
    try {
      lostId = (await createBusiness(client, { name: 'Lost Webhook Ltd' })).data.business.id;
      const entry = (await deliveries(running)).find((d) => d.type === 'business.created' && d.data.business_id === lostId);
      expect(entry).toMatchObject({ status: 'dropped', attempts: 0, delivered_at: null });
      expect((await control(running, 'GET', 'controls')).body.webhooks).toMatchObject({ paused: true });
      expect((await control(running, 'PUT', 'webhooks', { paused: 'yes' })).status).toBe(422);
    } finally {
      expect((await control(running, 'PUT', 'webhooks', { paused: false })).body).toMatchObject({ paused: false });
    }
    const found = await createBusiness(client, { name: 'Found Webhook Ltd' });
    await receiver.arrival('business.created', { business_id: found.data.business.id });
    // Nothing of the paused time is sent late.
    expect(receiver.find('business.created', { business_id: lostId })).toHaveLength(0);
    expect((await deliveries(running)).find((d) => d.data.business_id === lostId)).toMatchObject({ status: 'dropped', attempts: 0 });
  });

  it('logs each delivery in the test controls', async () => {
    const { data } = await createBusiness(client, { name: 'Logged Ltd' });
    const entry = await settled(running, 'delivered', (x) => x.type === 'business.created' && x.data.business_id === data.business.id);
    expect(entry).toMatchObject({ object: 'webhook_delivery', status: 'delivered', attempts: 1, last_status: 204, last_error: null });
    expect(entry.id).toMatch(/^msg_/);
    expect(receiver.accepted.has(entry.id)).toBe(true);
    expect(Date.parse(entry.delivered_at!)).not.toBeNaN();
    const overview = await control(running, 'GET', 'controls');
    expect(overview.body.webhooks).toMatchObject({ url: receiver.url, max_attempts: 8, schedule_ms: [0, 1000, 2000, 4000, 8000, 16000, 32000, 64000] });
    expect(JSON.stringify(overview.body)).not.toContain(SECRET_KEY.toString('base64'));
  });

  it('the receiver refuses a forged delivery and a replayed one', async () => {
    const accepted = receiver.attempts.find((a) => a.status === 204)!;
    const post = (headers: Record<string, string>, body: Buffer | string) =>
      fetch(receiver.url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: typeof body === 'string' ? body : new Uint8Array(body) });
    const nowS = String(Math.floor(Date.now() / 1000));

    // Forged: a body the sandbox never sent, signed with a guessed key.
    const forgedBody = JSON.stringify({ type: 'business.created', timestamp: new Date().toISOString(), data: { business_id: 'biz_forged' } });
    const wrongSig = createHmac('sha256', Buffer.from('not-the-secret')).update(`msg_forged.${nowS}.${forgedBody}`).digest('base64');
    expect((await post({ 'webhook-id': 'msg_forged', 'webhook-timestamp': nowS, 'webhook-signature': `v1,${wrongSig}` }, forgedBody)).status).toBe(400);
    // Tampered: a real signature over another body.
    expect(
      (await post({ 'webhook-id': accepted.id, 'webhook-timestamp': String(accepted.timestamp), 'webhook-signature': accepted.signature }, forgedBody)).status,
    ).toBe(400);
    // Replayed: the exact bytes and headers of a delivery already accepted.
    const replay = await post(
      { 'webhook-id': accepted.id, 'webhook-timestamp': String(accepted.timestamp), 'webhook-signature': accepted.signature },
      accepted.raw,
    );
    expect(replay.status).toBe(409);
    expect(receiver.find('business.created', { business_id: 'biz_forged' })).toHaveLength(0);
  });

  it('retries a failing receiver with back-off: same webhook-id, fresh timestamp and signature', async () => {
    // Speed 2: the 1 s and 2 s waits take 0.5 s and 1 s, so the third attempt is a second or more after the first.
    await control(running, 'PUT', 'clock', { speed: 2 });
    receiver.failFirst = 2;
    try {
      const { data } = await createBusiness(client, { name: 'Flaky Receiver Ltd' });
      const [id] = await receiver.arrival('business.created', { business_id: data.business.id });
      const tries = receiver.attempts.filter((a) => a.id === id);
      expect(tries.map((a) => a.status)).toEqual([500, 500, 204]);
      const [a1, a2, a3] = tries as [Attempt, Attempt, Attempt];
      // Back-off on the sandbox clock: 1 s then 2 s of sandbox time, at speed 2.
      expect(a2.at - a1.at).toBeGreaterThanOrEqual(450);
      expect(a3.at - a2.at).toBeGreaterThanOrEqual(950);
      expect(a3.timestamp).toBeGreaterThan(a1.timestamp);
      expect(a3.signature).not.toBe(a1.signature);
      // Every attempt carries the same body, correctly signed for its own timestamp.
      for (const a of tries) {
        expect(a.raw.equals(a1.raw)).toBe(true);
        expect(a.signature).toBe(`v1,${Receiver.expected(a.id, String(a.timestamp), a.raw).toString('base64')}`);
      }
      const entry = (await deliveries(running)).find((d) => d.id === id);
      expect(entry).toMatchObject({ status: 'delivered', attempts: 3, last_status: 204 });
    } finally {
      receiver.failFirst = 0;
      await control(running, 'PUT', 'clock', { speed: 1000 });
    }
  });

  it('gives up after the last attempt; a sped-up clock makes the whole schedule take milliseconds', async () => {
    receiver.failFirst = 1_000;
    try {
      const started = Date.now();
      const { data } = await createBusiness(client, { name: 'Always Failing Receiver Ltd' });
      const entry = await settled(running, 'failed', (x) => x.type === 'business.created' && x.data.business_id === data.business.id);
      // 8 attempts over 127 s of sandbox time, at speed 1000.
      expect(entry).toMatchObject({ attempts: 8, last_status: 500, last_error: 'HTTP 500', delivered_at: null });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(receiver.attempts.filter((a) => a.id === entry.id)).toHaveLength(8);
    } finally {
      receiver.failFirst = 0;
    }
  });
});

describe('webhook delivery failures and configuration', () => {
  it('retries network errors and timeouts, and records why', async () => {
    // A port nothing listens on (bound, then closed).
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    // A receiver that never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;

    const refused = await startSandbox({ port: 0, rateLimit: null, controls: true, webhookUrl: `http://127.0.0.1:${deadPort}/`, webhookMaxAttempts: 3 });
    const hanging = await startSandbox({ port: 0, rateLimit: null, controls: true, webhookUrl: silentUrl, webhookMaxAttempts: 2, webhookTimeoutMs: 200 });
    try {
      for (const sb of [refused, hanging]) await control(sb, 'PUT', 'clock', { speed: 1000 });
      await createBusiness(new SandboxClient(refused), { name: 'Nobody Listens Ltd' });
      await createBusiness(new SandboxClient(hanging), { name: 'Nobody Answers Ltd' });
      expect(await settled(refused, 'failed')).toMatchObject({ type: 'business.created', attempts: 3, last_status: null, last_error: 'ECONNREFUSED' });
      expect(await settled(hanging, 'failed')).toMatchObject({ type: 'business.created', attempts: 2, last_status: null, last_error: 'timeout' });
    } finally {
      await refused.close();
      await hanging.close();
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('sends and logs nothing without a webhook URL', async () => {
    const running = await startSandbox({ port: 0, rateLimit: null, controls: true });
    try {
      // The event is published (a subscriber of the bus gets it as the create answers); no delivery is logged.
      const published: string[] = [];
      const unsubscribe = running.sandbox.events.subscribe((e) => published.push(e.type));
      await createBusiness(new SandboxClient(running), { name: 'Quiet Ltd' });
      unsubscribe();
      expect(published).toEqual(['business.created']);
      expect(await deliveries(running)).toEqual([]);
      expect((await control(running, 'GET', 'controls')).body.webhooks).toMatchObject({ url: null });
    } finally {
      await running.close();
    }
  });
});
