import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basisPointsOf, feesFor } from '../../../shared/payments/fee-schedule.js';

describe('basisPointsOf', () => {
  it('rounds half up in integer arithmetic', () => {
    expect(basisPointsOf(50, 100)).toBe(1); // 0.5 -> 1
    expect(basisPointsOf(49, 100)).toBe(0);
    expect(basisPointsOf(9_007_199_254_740_991, 290)).toBe(261_208_778_387_489);
  });
});

describe('feesFor', () => {
  it('charges card payments 1 % platform plus 2.9 % + 30 cents processor', () => {
    expect(feesFor(10_000, 'USD', 'card')).toEqual({ platformFee: 100, processorFee: 320, fees: 420, net: 9_580 });
  });

  it('charges manual payments the platform fee only', () => {
    expect(feesFor(10_000, 'CAD', 'manual')).toEqual({ platformFee: 100, processorFee: 0, fees: 100, net: 9_900 });
  });

  it('never takes more than the gross amount', () => {
    expect(feesFor(20, 'USD', 'card')).toEqual({ platformFee: 0, processorFee: 20, fees: 20, net: 0 });
  });

  it('keeps fees whole cents between 0 and gross with net = gross - fees', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), fc.constantFrom('card' as const, 'manual' as const), (gross, method) => {
      const fees = feesFor(gross, 'USD', method);
      expect(Number.isInteger(fees.fees)).toBe(true);
      expect(fees.fees).toBeLessThanOrEqual(gross);
      expect(fees.net).toBe(gross - fees.platformFee - fees.processorFee);
    }), { numRuns: 200 });
  });
});
