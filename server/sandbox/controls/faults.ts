import { z } from 'zod';

/** PUT /_sandbox/faults: every field optional; the body replaces the previous settings as a whole. */
export const FaultsBody = z.strictObject({
  /** Added to every matching request before it is handled. */
  latency_ms: z.number().int().min(0).max(60_000).optional(),
  /** Extra latency drawn uniformly from 0..latency_jitter_ms. */
  latency_jitter_ms: z.number().int().min(0).max(60_000).optional(),
  /** Share of matching requests answered 429 rate_limited with Retry-After. */
  rate_429: z.number().min(0).max(1).optional(),
  /** Share answered with a server error (status_5xx, code internal_error). */
  rate_5xx: z.number().min(0).max(1).optional(),
  /** Share whose connection is destroyed without a reply, before the operation runs (nothing changes). */
  rate_drop: z.number().min(0).max(1).optional(),
  /**
   * Share whose operation runs (a write is applied, an Idempotency-Key recorded) and whose connection is then
   * destroyed before the reply: the caller cannot tell it from a drop before, which is what retries must survive.
   */
  rate_drop_after: z.number().min(0).max(1).optional(),
  /** Share of matching requests that meet a latency spike of spike_ms on top of latency_ms and the jitter. */
  spike_rate: z.number().min(0).max(1).optional(),
  spike_ms: z.number().int().min(0).max(60_000).optional(),
  status_5xx: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional(),
  retry_after_seconds: z.number().int().min(0).max(3600).optional(),
  /** Path prefixes the faults apply to (`/v1/businesses/`, or `businesses/` relative to /v1/); default all of /v1/. */
  paths: z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(50)]).optional(),
  /** Seeds the PRNG, so the same requests meet the same faults on every run. */
  seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
});
export type FaultsBody = z.infer<typeof FaultsBody>;

interface FaultConfig {
  latency_ms: number;
  latency_jitter_ms: number;
  rate_429: number;
  rate_5xx: number;
  rate_drop: number;
  rate_drop_after: number;
  spike_rate: number;
  spike_ms: number;
  status_5xx: 500 | 502 | 503 | 504;
  retry_after_seconds: number;
  paths: string[];
  seed: number;
}

interface FaultCounts {
  matched: number;
  delayed: number;
  dropped: number;
  dropped_after: number;
  spiked: number;
  rate_limited: number;
  server_errors: number;
}

/** drop_after: the operation runs, then the connection is destroyed instead of the reply. */
type FaultOutcome = 'drop' | '429' | '5xx' | 'drop_after' | null;

export interface FaultDecision {
  latencyMs: number;
  outcome: FaultOutcome;
  config: FaultConfig;
}

/** mulberry32: a small, fast, seedable PRNG (uniform in [0, 1)). */
export function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NO_COUNTS: FaultCounts = { matched: 0, delayed: 0, dropped: 0, dropped_after: 0, spiked: 0, rate_limited: 0, server_errors: 0 };

const normalisePath = (p: string) => (p.startsWith('/') ? p : `/v1/${p}`);

/**
 * Fault injection for /v1/ requests (and transfers whose path the faults name). For each matching request the PRNG is drawn, in this order, for the jitter
 * (when set), then drop, 429 and 5xx: the first that hits decides the outcome; then, only when they are set (so a
 * seed gives the same sequence as before they existed), the spike and drop-after. Every fault but drop-after strikes
 * before the operation runs, so such a faulted request changes nothing.
 */
export class FaultInjector {
  private config: FaultConfig | null = null;
  private rng: () => number = Math.random;
  private counts: FaultCounts = { ...NO_COUNTS };

  set(body: FaultsBody): FaultConfig {
    const seed = body.seed ?? Math.floor(Math.random() * 2 ** 32);
    const paths = body.paths === undefined ? [] : Array.isArray(body.paths) ? body.paths : [body.paths];
    this.config = {
      latency_ms: body.latency_ms ?? 0,
      latency_jitter_ms: body.latency_jitter_ms ?? 0,
      rate_429: body.rate_429 ?? 0,
      rate_5xx: body.rate_5xx ?? 0,
      rate_drop: body.rate_drop ?? 0,
      rate_drop_after: body.rate_drop_after ?? 0,
      spike_rate: body.spike_rate ?? 0,
      spike_ms: body.spike_ms ?? 0,
      status_5xx: body.status_5xx ?? 503,
      retry_after_seconds: body.retry_after_seconds ?? 1,
      paths: paths.map(normalisePath),
      seed,
    };
    this.rng = mulberry32(seed);
    this.counts = { ...NO_COUNTS };
    return this.config;
  }

  clear() {
    this.config = null;
  }

  view() {
    return this.config ? { ...this.config, counts: { ...this.counts } } : null;
  }

  /** Whether the faults name this path outside /v1/ (a transfer): those are faulted only when named. */
  names(pathname: string): boolean {
    return !!this.config?.paths.some((p) => !p.startsWith('/v1/') && pathname.startsWith(p));
  }

  /** What happens to a request for `pathname`; null when no fault applies. */
  decide(pathname: string): FaultDecision | null {
    const c = this.config;
    if (!c) return null;
    if (c.paths.length > 0 && !c.paths.some((p) => pathname.startsWith(p))) return null;
    this.counts.matched += 1;
    let latencyMs = c.latency_ms + (c.latency_jitter_ms > 0 ? Math.floor(this.rng() * (c.latency_jitter_ms + 1)) : 0);
    const drop = this.rng() < c.rate_drop;
    const limited = this.rng() < c.rate_429;
    const failed = this.rng() < c.rate_5xx;
    const spiked = c.spike_rate > 0 && this.rng() < c.spike_rate;
    const dropAfter = c.rate_drop_after > 0 && this.rng() < c.rate_drop_after;
    const outcome: FaultOutcome = drop ? 'drop' : limited ? '429' : failed ? '5xx' : dropAfter ? 'drop_after' : null;
    if (spiked) {
      latencyMs += c.spike_ms;
      this.counts.spiked += 1;
    }
    if (latencyMs > 0) this.counts.delayed += 1;
    if (outcome === 'drop') this.counts.dropped += 1;
    else if (outcome === 'drop_after') this.counts.dropped_after += 1;
    else if (outcome === '429') this.counts.rate_limited += 1;
    else if (outcome === '5xx') this.counts.server_errors += 1;
    if (latencyMs === 0 && outcome === null) return null;
    return { latencyMs, outcome, config: c };
  }
}
