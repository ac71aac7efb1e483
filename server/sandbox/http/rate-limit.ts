import { SandboxError } from './errors';

interface Bucket {
  tokens: number;
  at: number;
}

/** A token bucket per API key: `perSecond` refill, `burst` capacity. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Takes one token or throws 429 with Retry-After (whole seconds, at least 1). */
  take(keyId: string, perSecond: number, burst: number) {
    const t = this.now();
    const b = this.buckets.get(keyId) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * perSecond);
    b.at = t;
    this.buckets.set(keyId, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return;
    }
    const retryAfter = Math.max(1, Math.ceil((1 - b.tokens) / perSecond));
    throw new SandboxError(
      'rate_limited',
      `Too many requests for this API key; wait ${retryAfter} s before retrying.`,
      [],
      { 'Retry-After': String(retryAfter) },
    );
  }

  /** Refills every bucket (sandbox reset). */
  clear() {
    this.buckets.clear();
  }
}
