import { describe, expect, it } from 'vitest';
import { availableAtFor, bucketEndOf, bucketStartOf, refundAvailableAt, stepSeconds } from '../../../shared/ledger/settlement.js';

describe('availableAtFor', () => {
  it('adds the delay and rounds up to the minute (not the hour) for the 2-day sandbox delay', () => {
    expect(availableAtFor(new Date('2026-01-01T10:15:00Z'), 2 * 24 * 3600).toISOString()).toBe('2026-01-03T10:15:00.000Z');
    expect(availableAtFor(new Date('2026-01-01T10:15:00.001Z'), 2 * 24 * 3600).toISOString()).toBe('2026-01-03T10:16:00.000Z');
    expect(stepSeconds(2 * 24 * 3600)).toBe(60);
  });

  it('uses steps of a 48th of a short delay, at least a second', () => {
    expect(stepSeconds(480)).toBe(10);
    expect(stepSeconds(2)).toBe(1);
    expect(availableAtFor(new Date('2026-01-01T10:15:00.200Z'), 2).toISOString()).toBe('2026-01-01T10:15:03.000Z');
  });

  it('settles at once with no delay', () => {
    const created = new Date('2026-01-01T10:15:00.123Z');
    expect(availableAtFor(created, 0)).toEqual(created);
  });
});

describe('hour buckets', () => {
  it('keep money in the hour it becomes available in, an hour boundary in the hour it ends', () => {
    expect(bucketEndOf('2026-01-03T10:15:00.000Z')).toBe('2026-01-03T11:00:00.000Z');
    expect(bucketEndOf('2026-01-03T11:00:00.000Z')).toBe('2026-01-03T11:00:00.000Z');
    expect(bucketStartOf('2026-01-03T11:00:00.000Z')).toBe('2026-01-03T10:00:00.000Z');
  });
});

describe('refundAvailableAt', () => {
  it('follows a pending payment into its bucket and leaves at once otherwise', () => {
    const now = new Date('2026-01-02T00:00:00Z');
    expect(refundAvailableAt('2026-01-03T00:00:00.000Z', now).toISOString()).toBe('2026-01-03T00:00:00.000Z');
    expect(refundAvailableAt('2026-01-01T00:00:00.000Z', now)).toEqual(now);
  });
});
