import { describe, expect, it } from 'vitest';
import { availableOf, buildBalanceEntry } from '../../../shared/ledger/balance-service.js';
import type { BalanceTotals, LedgerEntry, SettlementBucket } from '../../../shared/ledger/ledger-model.js';

const NOW = new Date('2026-01-10T00:00:00Z');

function totals(overrides: Partial<BalanceTotals> = {}): BalanceTotals {
  return { settledGross: 1000, settledFees: 40, settledRefunds: 0, settledNet: 960, settledEntries: 1, paidOut: 0, payouts: 0, available: 960, ...overrides };
}

function bucket(availableAt: string, net: number): SettlementBucket {
  return { availableAt, gross: net, fees: 0, refunds: 0, net, entries: 1 };
}

function entry(overrides: Partial<LedgerEntry>): LedgerEntry {
  return {
    id: 'aaaaaaaaaaaaaaaaaaaaaaaa', type: 'payment', currency: 'USD', gross: 100, platformFee: 1, processorFee: 3, fees: 4,
    refundedAmount: 0, paidOut: 0, net: 96, availableAt: '2026-01-01T00:00:00.000Z', createdAt: '2026-01-01T00:00:00.000Z', ...overrides,
  };
}

describe('buildBalanceEntry', () => {
  it('is undefined for a scope that never saw money', () => {
    expect(buildBalanceEntry({ currency: 'USD', totals: undefined, buckets: [], recent: [] }, NOW, false)).toBeUndefined();
  });

  it('splits buckets into pending and matured (available) and subtracts payouts from the available balance', () => {
    const result = buildBalanceEntry({
      currency: 'USD',
      totals: totals({ paidOut: 500, payouts: 1, available: 460 }),
      buckets: [bucket('2026-01-09T00:00:00.000Z', 200), bucket('2026-01-11T00:00:00.000Z', 300)],
      recent: [],
    }, NOW, true);
    expect(result?.available_balance).toMatchObject({ balance: 660, net: 1160, gross: 1200, currency: 'USD' });
    expect(result?.pending_balance).toMatchObject({ balance: 300, net: 300, currency: 'USD' });
    expect(result?.instant_balance).toEqual(result?.available_balance);
    expect(result?.paid_out_balance).toMatchObject({ balance: 500, currency: 'USD' });
  });

  it('caps an event\'s instant balance at what the account can pay out, leaving its available balance its own', () => {
    const state = { currency: 'USD' as const, totals: totals(), buckets: [], recent: [] };
    const capped = buildBalanceEntry(state, NOW, true, 100);
    expect(capped?.available_balance).toMatchObject({ balance: 960, net: 960 });
    expect(capped?.instant_balance).toMatchObject({ balance: 100, net: 960 });
    expect(buildBalanceEntry(state, NOW, true, 5_000)?.instant_balance.balance).toBe(960);
  });

  it('counts matured buckets as available before they are folded, and subtracts payouts', () => {
    const buckets = [bucket('2026-01-09T00:00:00.000Z', 200), bucket('2026-01-11T00:00:00.000Z', 300)];
    expect(availableOf(totals({ paidOut: 500 }), buckets, [], NOW)).toBe(960 + 200 - 500);
    expect(availableOf(undefined, buckets, [], NOW)).toBe(200);
    // The matured steps of the bucket in its hour count too (their money is still in that bucket).
    expect(availableOf(undefined, buckets, [bucket('2026-01-09T23:59:00.000Z', 120)], NOW)).toBe(200 + 120);
  });

  it('moves the matured steps of the bucket in its hour from pending to available', () => {
    const result = buildBalanceEntry({
      currency: 'USD', totals: totals(), buckets: [bucket('2026-01-10T00:30:00.000Z', 300)],
      maturedSteps: [{ ...bucket('2026-01-09T23:45:00.000Z', 100), gross: 110, fees: 10 }], recent: [],
    }, NOW, false);
    expect(result?.available_balance).toMatchObject({ balance: 960 + 100, net: 960 + 100, gross: 1000 + 110, fees: 40 + 10 });
    expect(result?.pending_balance).toMatchObject({ balance: 200, net: 200, gross: 300 - 110 });
  });

  it('marks empty buckets with a null currency and omits paid_out_balance account-wide', () => {
    const result = buildBalanceEntry({ currency: 'CAD', totals: undefined, buckets: [bucket('2026-01-11T00:00:00.000Z', 50)], recent: [] }, NOW, false);
    expect(result?.available_balance.currency).toBeNull();
    expect(result?.pending_balance.currency).toBe('CAD');
    expect(result).not.toHaveProperty('paid_out_balance');
  });

  it('files recent entries as orders of the bucket they belong to', () => {
    const result = buildBalanceEntry({
      currency: 'USD',
      totals: totals(),
      buckets: [],
      recent: [
        entry({ id: 'bbbbbbbbbbbbbbbbbbbbbbbb', availableAt: '2026-01-11T00:00:00.000Z', latestCharge: 'ch_1', eventId: 'e1' }),
        entry({ id: 'cccccccccccccccccccccccc', type: 'payout', paidOut: 10, net: -10 }),
        entry({}),
      ],
    }, NOW, true);
    expect(result?.pending_balance.orders).toEqual([expect.objectContaining({ _id: 'bbbbbbbbbbbbbbbbbbbbbbbb', latest_charge: 'ch_1', event_id: 'e1' })]);
    expect(result?.available_balance.orders.map((order) => order._id)).toEqual(['aaaaaaaaaaaaaaaaaaaaaaaa']);
    expect(result?.paid_out_balance?.orders.map((order) => order._id)).toEqual(['cccccccccccccccccccccccc']);
  });
});
