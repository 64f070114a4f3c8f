import { describe, expect, it } from 'vitest';
import { WorkspaceLimitsCache, type LimitsLoader } from '../../../bin/local/workspace-limits.js';

const DEFAULTS = { rate: 1000, burst: 2000 };

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => { now += ms; } };
}

/** A loader answering from a map, counting its reads. */
function store(initial: Record<string, { rate: number; burst: number }>) {
  const limits = new Map(Object.entries(initial));
  const state = { reads: 0, fail: false };
  const load: LimitsLoader = async (workspaceId) => {
    state.reads += 1;
    if (state.fail) throw new Error('DynamoDB unreachable');
    return limits.get(workspaceId);
  };
  return { load, limits, state };
}

describe('WorkspaceLimitsCache', () => {
  it('answers the defaults until the first read lands, then the workspace\'s own limits', async () => {
    // Prepare
    const { load } = store({ w1: { rate: 1, burst: 3 } });
    const cache = new WorkspaceLimitsCache(load, DEFAULTS, 2_000, clock().now);

    // Act
    const first = cache.limitsOf('w1');
    await cache.settled();
    const second = cache.limitsOf('w1');

    // Assess
    expect(first).toEqual(DEFAULTS);
    expect(second).toEqual({ rate: 1, burst: 3 });
    expect(cache.limitsOf('w2')).toEqual(DEFAULTS);
  });

  it('re-reads a workspace at most once per interval, and picks up a change after it', async () => {
    // Prepare
    const time = clock();
    const { load, limits, state } = store({ w1: { rate: 1, burst: 3 } });
    const cache = new WorkspaceLimitsCache(load, DEFAULTS, 2_000, time.now);
    cache.limitsOf('w1');
    await cache.settled();

    // Act
    limits.set('w1', { rate: 5, burst: 5 });
    for (let i = 0; i < 50; i += 1) cache.limitsOf('w1');
    await cache.settled();
    const beforeInterval = cache.limitsOf('w1');
    time.advance(2_000);
    cache.limitsOf('w1');
    await cache.settled();

    // Assess
    expect(beforeInterval).toEqual({ rate: 1, burst: 3 });
    expect(cache.limitsOf('w1')).toEqual({ rate: 5, burst: 5 });
    expect(state.reads).toBe(2);
  });

  it('keeps the last known limits when a read fails', async () => {
    const time = clock();
    const { load, state } = store({ w1: { rate: 1, burst: 3 } });
    const cache = new WorkspaceLimitsCache(load, DEFAULTS, 2_000, time.now);
    cache.limitsOf('w1');
    await cache.settled();
    state.fail = true;
    time.advance(2_000);
    cache.limitsOf('w1');
    await cache.settled();
    expect(cache.limitsOf('w1')).toEqual({ rate: 1, burst: 3 });
  });
});
