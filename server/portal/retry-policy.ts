import 'server-only';

/** DESIGN.md §3 retry rules, in numbers. */
export const RETRY_POLICY = {
  /** Attempts in total, the first included. */
  maxAttempts: 3,
  /** Back-off before retry n is base × 2^(n-1), of which the upper half is random ("equal jitter"). */
  baseDelayMs: 100,
  maxBackoffMs: 2_000,
  /** A 429 asking for a longer wait is surfaced at once: a person is waiting on the other end. */
  maxRetryAfterMs: 10_000,
  /** Statuses that mean "not processed, try again"; 501 and 505 will not get better. */
  retryStatuses: [500, 502, 503, 504] as readonly number[],
} as const;

export interface RetryTiming {
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** In [0, 1). */
  random(): number;
}

const realSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

const REAL_TIMING: RetryTiming = { sleep: realSleep, random: Math.random };
let timing: RetryTiming = REAL_TIMING;

export const retryTiming = (): RetryTiming => timing;

/** Tests: replace sleep and/or random (e.g. to record waits without spending them). Returns an undo function. */
export function setRetryTimingForTests(overrides: Partial<RetryTiming> | null): () => void {
  const previous = timing;
  timing = overrides ? { ...REAL_TIMING, ...overrides } : REAL_TIMING;
  return () => {
    timing = previous;
  };
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined if absent or unparsable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const date = Date.parse(v);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Wait before retry number `retry` (1 = the first retry). */
export function backoffMs(retry: number, random: () => number = timing.random): number {
  const ceiling = Math.min(RETRY_POLICY.maxBackoffMs, RETRY_POLICY.baseDelayMs * 2 ** (retry - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}

/** Wait before retrying a 429: never less than Retry-After, plus jitter so that callers do not return in step. */
export function rateLimitWaitMs(retry: number, retryAfterMs: number | undefined, random: () => number = timing.random): number {
  return Math.max(retryAfterMs ?? 0, backoffMs(retry, random)) + random() * RETRY_POLICY.baseDelayMs;
}

/**
 * Whether a failure that may or may not have reached the Portal (5xx, network) can be repeated safely:
 * reads; commands the Portal deduplicates by their Idempotency-Key; and writes guarded by If-Match (answer
 * and item writes, stage moves, decisions), which apply at most once: a first attempt that did land moved
 * the ETag, so its repeat answers 412 with the object as it is now, which the caller reconciles like any
 * other conflict (the three-way merge sees its own values there).
 */
export const repeatableAfterFailure = (method: string, guard: { idempotencyKey?: string; ifMatch?: string }) =>
  method === 'GET' || method === 'HEAD' || !!guard.idempotencyKey || !!guard.ifMatch;
