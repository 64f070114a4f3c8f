import { describe, expect, it } from 'vitest';
import { availableAtFor, bucketSeconds, refundAvailableAt } from '../../../shared/ledger/settlement.js';

describe('availableAtFor', () => {
  it('adds the delay and rounds up to the hour for the 2-day sandbox delay', () => {
    const created = new Date('2026-01-01T10:15:00Z');
    expect(availableAtFor(created, 2 * 24 * 3600).toISOString()).toBe('2026-01-03T11:00:00.000Z');
    expect(bucketSeconds(2 * 24 * 3600)).toBe(3600);
  });

  it('settles at once with no delay', () => {
    const created = new Date('2026-01-01T10:15:00.123Z');
    expect(availableAtFor(created, 0)).toEqual(created);
  });
});

describe('refundAvailableAt', () => {
  it('follows a pending payment into its bucket and leaves at once otherwise', () => {
    const now = new Date('2026-01-02T00:00:00Z');
    expect(refundAvailableAt('2026-01-03T00:00:00.000Z', now).toISOString()).toBe('2026-01-03T00:00:00.000Z');
    expect(refundAvailableAt('2026-01-01T00:00:00.000Z', now)).toEqual(now);
  });
});
