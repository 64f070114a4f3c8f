import type { RateLimit } from '../../shared/http/rate-limits.js';

/** Buckets kept at most; full (idle) buckets are dropped first, since a full bucket is the same as none. */
const MAX_BUCKETS = 50_000;

interface Bucket {
  tokens: number;
  at: number;
  /** When it will be full again at its last limit: from then on, dropping it changes nothing. */
  fullAt: number;
}

/**
 * Token buckets, one per key (a workspace, a client address), the model of API Gateway's throttling:
 * a bucket holds up to `burst` tokens and refills at `rate` per second; each request takes one. The
 * limit is passed on each call, so a workspace's new limits apply to its existing bucket (its tokens
 * are capped at the new burst).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Takes a token from `key`'s bucket. Returns undefined when the request may pass, otherwise the
   * whole seconds until a token is back (at least 1): the `Retry-After` of the 429.
   */
  take(key: string, limit: RateLimit): number | undefined {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.evict(now);
      bucket = { tokens: limit.burst, at: now, fullAt: now };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.rate);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    bucket.fullAt = now + ((limit.burst - bucket.tokens) / limit.rate) * 1000;
    return allowed ? undefined : Math.max(1, Math.ceil((1 - bucket.tokens) / limit.rate));
  }

  get size(): number {
    return this.buckets.size;
  }

  /**
   * Drops the buckets that have refilled (the same as absent), then if need be the oldest created, down
   * to 90 % of the cap, so that a sweep is paid once per many new keys.
   */
  private evict(now: number): void {
    for (const [key, bucket] of this.buckets) if (bucket.fullAt <= now) this.buckets.delete(key);
    for (const key of this.buckets.keys()) {
      if (this.buckets.size < MAX_BUCKETS * 0.9) break;
      this.buckets.delete(key);
    }
  }
}
