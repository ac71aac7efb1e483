import { describe, expect, it } from 'vitest';
import { BusinessPage, ErrorBody } from '@/lib/portal';
import { matchTiming } from '@/server/sandbox/funding/state';
import { startSandbox } from '@/server/sandbox/server';
import { createBusiness } from './support/businesses';
import { SandboxClient, expectError, newKey, setupSandbox, type Res } from './support/sandbox';

/** A call to the test controls: no API key. */
async function control(client: SandboxClient, method: string, path: string, body?: unknown, raw?: string): Promise<Res<Record<string, unknown>>> {
  const r = await fetch(`${client.running.origin}/_sandbox/${path}`, {
    method,
    headers: body === undefined && raw === undefined ? {} : { 'Content-Type': 'application/json' },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

async function timed<T>(fn: () => Promise<T>) {
  const t = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t };
}

const idsOf = async (client: SandboxClient) => (await client.read(BusinessPage, 'businesses/?page_size=100')).data.items.map((b) => b.id);

describe('test controls, disabled (the default)', () => {
  const ctx = setupSandbox();

  it('answers 404 on every /_sandbox/ path, like any unknown path', async () => {
    for (const [method, path, body] of [
      ['GET', 'controls'],
      ['GET', 'webhook-deliveries'],
      ['PUT', 'faults', { rate_429: 1 }],
      ['DELETE', 'faults'],
      ['PUT', 'clock', { speed: 10 }],
      ['POST', 'reset'],
      ['GET', ''],
    ] as const) {
      expectError(await control(ctx.client, method, path, body), 404, 'not_found');
    }
    // Nothing was applied: the API behaves normally.
    expect((await ctx.client.get('')).status).toBe(200);
    expect(ctx.running.controls).toBeNull();
  });
});

describe('test controls, enabled', () => {
  const ctx = setupSandbox({ controls: true });

  it('shows faults, clock speed and webhook deliveries, without an API key', async () => {
    const res = await control(ctx.client, 'GET', 'controls');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'sandbox_controls', faults: null, clock: { speed: 1 }, webhooks: { url: null, deliveries: [] } });
    expect((await control(ctx.client, 'GET', 'controls/')).status).toBe(200);
    expect((await control(ctx.client, 'GET', 'webhook-deliveries')).body).toEqual({ object: 'list', items: [] });
  });

  it('generates businesses in bulk, each with a contact and an application, deterministic for a seed', async () => {
    const before = (await idsOf(ctx.client)).length;
    const made = await control(ctx.client, 'POST', 'businesses', { generate: 120, seed: 7 });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ object: 'sandbox_businesses', generated: 120, total: before + 120 });
    const page = (await ctx.client.read(BusinessPage, 'businesses/?page_size=100')).data;
    const last = page.next_cursor ? (await ctx.client.read(BusinessPage, `businesses/?page_size=100&cursor=${encodeURIComponent(page.next_cursor)}`)).data : page;
    const generated = last.items.at(-1)!;
    expect(generated.name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+ \d+ Ltd$/);
    const people = await ctx.client.get<{ items: Array<{ full_name: string; email: string; is_primary: boolean }> }>(`businesses/${generated.id}/people/`);
    expect(people.body.items).toEqual([expect.objectContaining({ is_primary: true, email: expect.stringMatching(/@example\.test$/) })]);
    const status = await ctx.client.get<{ application: { id: string } | null }>(`businesses/${generated.id}/status/`);
    expect(status.body.application).not.toBeNull();
    expectError(await control(ctx.client, 'POST', 'businesses', { generate: 0 }), 422, 'validation_failed');
    expectError(await control(ctx.client, 'POST', 'businesses', { generate: 20_001 }), 422, 'validation_failed');
    // The other tests of this sandbox read the first page of businesses: back to the seed.
    expect((await control(ctx.client, 'POST', 'reset')).status).toBe(200);
  });

  it('adds latency to /v1/ requests, only on the given paths', async () => {
    await ctx.client.get(''); // warm the connection
    const baseline = await timed(() => ctx.client.get(''));
    expect((await control(ctx.client, 'PUT', 'faults', { latency_ms: 500 })).status).toBe(200);
    try {
      const slow = await timed(() => ctx.client.get('businesses/'));
      expect(slow.value.status).toBe(200);
      expect(slow.ms).toBeGreaterThanOrEqual(490);
      // The controls themselves are never faulted.
      expect((await timed(() => control(ctx.client, 'GET', 'controls'))).ms).toBeLessThan(400);

      await control(ctx.client, 'PUT', 'faults', { latency_ms: 500, latency_jitter_ms: 100, paths: ['businesses/'] });
      const filtered = await timed(() => ctx.client.get('businesses/'));
      expect(filtered.ms).toBeGreaterThanOrEqual(490);
      const other = await timed(() => ctx.client.get(''));
      expect(other.value.status).toBe(200);
      expect(other.ms).toBeLessThan(baseline.ms + 400);
      const view = (await control(ctx.client, 'GET', 'faults')).body.faults as Record<string, unknown>;
      expect(view).toMatchObject({ latency_ms: 500, latency_jitter_ms: 100, paths: ['/v1/businesses/'], counts: { matched: 1, delayed: 1 } });
    } finally {
      expect((await control(ctx.client, 'DELETE', 'faults')).status).toBe(204);
    }
  });

  it('rate_429 = 1: every request gets 429 rate_limited with Retry-After and the normal error body', async () => {
    await control(ctx.client, 'PUT', 'faults', { rate_429: 1, retry_after_seconds: 7 });
    try {
      for (const path of ['', 'businesses/', 'no-such-path/']) {
        const res = await ctx.client.get(path);
        const err = expectError(res, 429, 'rate_limited');
        expect(res.headers.get('retry-after')).toBe('7');
        expect(err.details).toEqual([expect.objectContaining({ code: 'fault_injected' })]);
      }
      // Even without a key: faults strike before authentication.
      expectError(await ctx.client.get('', { key: null }), 429, 'rate_limited');
    } finally {
      await control(ctx.client, 'DELETE', 'faults');
    }
  });

  it('rate_5xx = 1: 503 internal_error by default, or the chosen status; the operation does not run', async () => {
    await control(ctx.client, 'PUT', 'faults', { rate_5xx: 1 });
    const idem = newKey('fault');
    const body = { name: 'Faulted Create Ltd' };
    try {
      const res = await ctx.client.post('businesses/', { body, idempotencyKey: idem });
      expect(res.status).toBe(503);
      const parsed = ErrorBody.parse(res.body);
      expect(parsed.error).toMatchObject({ code: 'internal_error', request_id: res.headers.get('request-id') });
      await control(ctx.client, 'PUT', 'faults', { rate_5xx: 1, status_5xx: 500 });
      expectError(await ctx.client.get('businesses/'), 500, 'internal_error');
    } finally {
      await control(ctx.client, 'DELETE', 'faults');
    }
    // The faulted create changed nothing: the same key now creates (no replay of the 503).
    const retry = await ctx.client.post('businesses/', { body, idempotencyKey: idem });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('rate_drop = 1: the connection is closed without a reply', async () => {
    await control(ctx.client, 'PUT', 'faults', { rate_drop: 1 });
    try {
      await expect(ctx.client.get('')).rejects.toThrow();
      await expect(ctx.client.post('businesses/', { body: { name: 'Dropped Ltd' }, idempotencyKey: newKey('drop') })).rejects.toThrow();
      expect(((await control(ctx.client, 'GET', 'faults')).body.faults as { counts: { dropped: number } }).counts.dropped).toBe(2);
    } finally {
      await control(ctx.client, 'DELETE', 'faults');
    }
  });

  it('rate_drop_after = 1: the operation runs, then the connection closes; the same key replays the result', async () => {
    await control(ctx.client, 'PUT', 'faults', { rate_drop_after: 1, paths: 'businesses/' });
    const idem = newKey('drop-after');
    const body = { name: 'Dropped After Ltd' };
    try {
      await expect(ctx.client.post('businesses/', { body, idempotencyKey: idem })).rejects.toThrow();
      const faults = (await control(ctx.client, 'GET', 'faults')).body.faults as { counts: Record<string, number> };
      expect(faults.counts).toMatchObject({ matched: 1, dropped_after: 1, dropped: 0 });
    } finally {
      await control(ctx.client, 'DELETE', 'faults');
    }
    // Unlike a drop before, the business exists: an identical retry is a replay of its 201, not a second one.
    const retry = await ctx.client.post('businesses/', { body, idempotencyKey: idem });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const named = (await ctx.client.read(BusinessPage, 'businesses/?page_size=100')).data.items.filter((b) => b.name === body.name);
    expect(named).toHaveLength(1);
  });

  it('latency spikes: spike_rate of the requests wait spike_ms more, counted as spiked', async () => {
    await ctx.client.get(''); // warm the connection
    await control(ctx.client, 'PUT', 'faults', { spike_rate: 1, spike_ms: 400 });
    try {
      const spiked = await timed(() => ctx.client.get(''));
      expect(spiked.value.status).toBe(200);
      expect(spiked.ms).toBeGreaterThanOrEqual(390);
      await control(ctx.client, 'PUT', 'faults', { spike_rate: 0.5, spike_ms: 300, seed: 7 });
      const times: number[] = [];
      for (let i = 0; i < 12; i++) times.push((await timed(() => ctx.client.get(''))).ms);
      const counts = ((await control(ctx.client, 'GET', 'faults')).body.faults as { counts: { spiked: number; matched: number } }).counts;
      expect(counts.matched).toBe(12);
      expect(counts.spiked).toBeGreaterThan(0);
      expect(counts.spiked).toBeLessThan(12);
      // Every spiked request was slow (a loaded machine may slow others too, so no upper bound).
      expect(times.filter((ms) => ms >= 290).length).toBeGreaterThanOrEqual(counts.spiked);
    } finally {
      await control(ctx.client, 'DELETE', 'faults');
    }
  });

  it('429 with Retry-After mixed with other faults: the header always names the configured wait', async () => {
    await control(ctx.client, 'PUT', 'faults', { rate_429: 0.5, rate_5xx: 0.3, retry_after_seconds: 2, seed: 11 });
    try {
      const seen = new Set<number>();
      for (let i = 0; i < 20; i++) {
        const res = await ctx.client.get('businesses/');
        seen.add(res.status);
        if (res.status === 429) expect(res.headers.get('retry-after')).toBe('2');
        else expect(res.headers.get('retry-after')).toBeNull();
      }
      expect([...seen].sort()).toEqual([200, 429, 503]);
    } finally {
      await control(ctx.client, 'DELETE', 'faults');
    }
  });

  it('clearing the faults restores normal service', async () => {
    await control(ctx.client, 'PUT', 'faults', { rate_429: 1, rate_5xx: 1, rate_drop: 1, latency_ms: 2000 });
    expect((await control(ctx.client, 'DELETE', 'faults')).status).toBe(204);
    const { value, ms } = await timed(() => ctx.client.get('businesses/'));
    expect(value.status).toBe(200);
    expect(ms).toBeLessThan(1500);
    expect((await control(ctx.client, 'GET', 'controls')).body.faults).toBeNull();
  });

  it('a seed makes partial fault rates deterministic', async () => {
    const run = async () => {
      await control(ctx.client, 'PUT', 'faults', { rate_429: 0.5, seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) statuses.push((await ctx.client.get('')).status);
      return statuses;
    };
    try {
      const first = await run();
      expect(await run()).toEqual(first);
      expect(first).toContain(429);
      expect(first).toContain(200);
    } finally {
      await control(ctx.client, 'DELETE', 'faults');
    }
  });

  it('validates fault and clock bodies', async () => {
    expectError(await control(ctx.client, 'PUT', 'faults', { rate_429: 2 }), 422, 'validation_failed');
    expectError(await control(ctx.client, 'PUT', 'faults', { latency: 5 }), 422, 'validation_failed');
    expectError(await control(ctx.client, 'PUT', 'faults', { rate_drop_after: -0.1 }), 422, 'validation_failed');
    expectError(await control(ctx.client, 'PUT', 'faults', { spike_ms: 1.5 }), 422, 'validation_failed');
    expectError(await control(ctx.client, 'PUT', 'faults', undefined, '{nope'), 400, 'invalid_request');
    expectError(await control(ctx.client, 'PUT', 'clock', { speed: 0 }), 422, 'validation_failed');
    expectError(await control(ctx.client, 'PUT', 'clock', {}), 422, 'validation_failed');
    expectError(await control(ctx.client, 'GET', 'no-such-control'), 404, 'not_found');
    expectError(await control(ctx.client, 'GET', 'reset'), 404, 'not_found');
    expect((await control(ctx.client, 'GET', 'controls')).body.faults).toBeNull();
  });

  it('sets the clock speed', async () => {
    const res = await control(ctx.client, 'PUT', 'clock', { speed: 50 });
    expect(res.body).toEqual({ object: 'sandbox_clock', speed: 50 });
    expect(ctx.running.sandbox.clock.getSpeed()).toBe(50);
    expect((await control(ctx.client, 'GET', 'controls')).body.clock).toEqual({ speed: 50 });
    // 1 s of sandbox time now takes 20 ms.
    const fired = await timed(() => new Promise<void>((resolve) => ctx.running.sandbox.clock.after(1000, resolve)));
    expect(fired.ms).toBeLessThan(500);
    await control(ctx.client, 'PUT', 'clock', { speed: 1 });
  });

  it('times match runs, of every project or of one project only; a reset forgets the one project’s', async () => {
    const sb = ctx.running.sandbox;
    expect((await control(ctx.client, 'GET', 'matching')).body).toEqual({ object: 'sandbox_matching', run_queued_ms: 500, funder_ms: 20, projects: {} });
    const one = await control(ctx.client, 'PUT', 'matching', { project_id: 'proj_meridiancnc', funder_ms: 400 });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ object: 'sandbox_matching', run_queued_ms: 500, funder_ms: 20, projects: { proj_meridiancnc: { run_queued_ms: 500, funder_ms: 400 } } });
    expect(matchTiming(sb, 'proj_meridiancnc')).toEqual({ runQueuedMs: 500, funderMs: 400 });
    expect(matchTiming(sb, 'proj_fairwayxray')).toEqual({ runQueuedMs: 500, funderMs: 20 });
    try {
      const all = await control(ctx.client, 'PUT', 'matching', { run_queued_ms: 0 });
      expect(all.body).toMatchObject({ run_queued_ms: 0, funder_ms: 20 });
      expect(matchTiming(sb, 'proj_fairwayxray')).toEqual({ runQueuedMs: 0, funderMs: 20 });
      expect(matchTiming(sb, 'proj_meridiancnc')).toEqual({ runQueuedMs: 500, funderMs: 400 });

      expect((await control(ctx.client, 'PUT', 'matching', {})).status).toBe(422);
      expect((await control(ctx.client, 'PUT', 'matching', { funder_ms: -1 })).status).toBe(422);
      expect((await control(ctx.client, 'PUT', 'matching', { funder_ms: 1, speed: 2 })).status).toBe(422);
      expectError(await control(ctx.client, 'PUT', 'matching', { project_id: 'proj_nosuchproject', funder_ms: 1 }), 404, 'not_found');

      expect((await control(ctx.client, 'POST', 'reset')).status).toBe(200);
      expect((await control(ctx.client, 'GET', 'matching')).body).toEqual({ object: 'sandbox_matching', run_queued_ms: 0, funder_ms: 20, projects: {} });
    } finally {
      await control(ctx.client, 'PUT', 'matching', { run_queued_ms: 500, funder_ms: 20 });
    }
  });

  it('reset restores the seed, forgets idempotency keys and cancels pending timers', async () => {
    const fresh = await startSandbox({ port: 0, rateLimit: null });
    const seeded = await idsOf(new SandboxClient(fresh)).finally(() => fresh.close());
    const idem = newKey('before-reset');
    const created = await ctx.client.post('businesses/', { body: { name: 'Ephemeral Ltd' }, idempotencyKey: idem });
    expect(created.status).toBe(201);
    const id = (created.body as { business: { id: string } }).business.id;
    expect(await idsOf(ctx.client)).toContain(id);
    let fired = false;
    ctx.running.sandbox.clock.after(100, () => (fired = true));

    const res = await control(ctx.client, 'POST', 'reset');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'sandbox_reset' });

    expectError(await ctx.client.get(`businesses/${id}/`), 404, 'not_found');
    // Exactly the seed's businesses: this one and those earlier tests made are gone.
    expect(await idsOf(ctx.client)).toEqual(seeded);
    // The key is new again: a different body is a new command, not idempotency_key_reused.
    const again = await ctx.client.post('businesses/', { body: { name: 'Another Ltd' }, idempotencyKey: idem });
    expect(again.status).toBe(201);
    // A timer set after the reset, as long, fires: by then the cancelled one would have fired before it.
    let after = false;
    ctx.running.sandbox.clock.after(100, () => (after = true));
    for (let i = 0; i < 500 && !after; i++) await new Promise((r) => setTimeout(r, 10));
    expect(after).toBe(true);
    expect(fired).toBe(false);
  });

  it('reset refills the rate-limit buckets', async () => {
    const limited = await startSandbox({ port: 0, controls: true, rateLimit: { perSecond: 0.01, burst: 2 } });
    try {
      const client = new SandboxClient(limited);
      expect((await client.get('')).status).toBe(200);
      expect((await client.get('')).status).toBe(200);
      expectError(await client.get(''), 429, 'rate_limited');
      expect((await control(client, 'POST', 'reset')).status).toBe(200);
      expect((await client.get('')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('reset leaves faults and clock speed alone and clears the delivery log', async () => {
    await control(ctx.client, 'PUT', 'clock', { speed: 5 });
    await control(ctx.client, 'PUT', 'faults', { rate_429: 1, paths: '/v1/deals/' });
    try {
      await control(ctx.client, 'POST', 'reset');
      const view = (await control(ctx.client, 'GET', 'controls')).body;
      expect(view).toMatchObject({ clock: { speed: 5 }, faults: { rate_429: 1, paths: ['/v1/deals/'] }, webhooks: { deliveries: [] } });
      await createBusiness(ctx.client, { name: 'After Reset Ltd' });
    } finally {
      await control(ctx.client, 'DELETE', 'faults');
      await control(ctx.client, 'PUT', 'clock', { speed: 1 });
    }
  });
});
