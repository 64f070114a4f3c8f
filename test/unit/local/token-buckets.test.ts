import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../../bin/local/token-buckets.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => { now += ms; } };
}

describe('TokenBuckets', () => {
  it('lets a burst through, then refuses until tokens come back at the steady rate', () => {
    // Prepare
    const time = clock();
    const buckets = new TokenBuckets(time.now);
    const limit = { rate: 2, burst: 3 };

    // Act
    const burst = [1, 2, 3, 4].map(() => buckets.take('ws', limit));
    time.advance(500);
    const afterHalfSecond = [buckets.take('ws', limit), buckets.take('ws', limit)];

    // Assess
    expect(burst).toEqual([undefined, undefined, undefined, 1]);
    expect(afterHalfSecond).toEqual([undefined, 1]);
  });

  it('keeps one bucket per key: another key is unaffected', () => {
    const buckets = new TokenBuckets(clock().now);
    const limit = { rate: 1, burst: 1 };
    expect(buckets.take('a', limit)).toBeUndefined();
    expect(buckets.take('a', limit)).toBe(1);
    expect(buckets.take('b', limit)).toBeUndefined();
  });

  it('answers the whole seconds until the next token as Retry-After', () => {
    // Prepare: a slow rate, one token every 4 s.
    const time = clock();
    const buckets = new TokenBuckets(time.now);
    const limit = { rate: 0.25, burst: 1 };
    buckets.take('ws', limit);

    // Act
    const first = buckets.take('ws', limit);
    time.advance(3_500);
    const later = buckets.take('ws', limit);

    // Assess
    expect(first).toBe(4);
    expect(later).toBe(1);
  });

  it('applies a lower limit to an existing bucket at once: its tokens are capped at the new burst', () => {
    const buckets = new TokenBuckets(clock().now);
    expect(buckets.take('ws', { rate: 1000, burst: 2000 })).toBeUndefined();
    const small = { rate: 1, burst: 2 };
    expect([buckets.take('ws', small), buckets.take('ws', small), buckets.take('ws', small)]).toEqual([undefined, undefined, 1]);
  });

  it('never holds more tokens than the burst after a long pause', () => {
    const time = clock();
    const buckets = new TokenBuckets(time.now);
    const limit = { rate: 10, burst: 2 };
    buckets.take('ws', limit);
    time.advance(60_000);
    expect([buckets.take('ws', limit), buckets.take('ws', limit), buckets.take('ws', limit)]).toEqual([undefined, undefined, 1]);
  });
});
