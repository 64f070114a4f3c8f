import { describe, expect, it } from 'vitest';
import { computeTotals, formatInvoiceNumber } from '../../../shared/invoices/invoice-totals.js';

const line = (quantity: number, unitAmount: number, taxAmount?: number) => ({ quantity, unitAmount, taxAmount });
const payment = (status: 'succeeded' | 'failed', amount: number, refunds: number[] = []) => ({ status, amount, refunds: refunds.map((value) => ({ amount: value })) });

describe('computeTotals', () => {
  it('sums quantity x unitAmount and line taxes in cents', () => {
    const totals = computeTotals([line(3, 1999, 150), line(1, 1, undefined)]);
    expect(totals).toEqual({ subtotal: 5998, taxTotal: 150, total: 6148, amountPaid: 0, amountRefunded: 0, amountDue: 6148 });
  });

  it('counts succeeded payments only and leaves refunds out of amountPaid', () => {
    const totals = computeTotals([line(1, 1000, 0)], [payment('failed', 1000), payment('succeeded', 600, [100, 50]), payment('succeeded', 100)]);
    expect(totals).toMatchObject({ amountPaid: 700, amountRefunded: 150, amountDue: 300 });
  });

  it('never lets amountDue go below 0', () => {
    expect(computeTotals([line(1, 100, 0)], [payment('succeeded', 250)]).amountDue).toBe(0);
  });

  it('stays exact beyond float-safe products and rejects totals above the safe range', () => {
    expect(computeTotals([line(1_000_000, 9_000_000_000, 0)]).subtotal).toBe(9_000_000_000_000_000);
    expect(() => computeTotals([line(1_000_000, 9_007_199_254_740, 0), line(1, 9_007_199_254_740_991, 0)])).toThrow(/too large/);
  });
});

describe('formatInvoiceNumber', () => {
  it('pads to six digits and grows beyond them', () => {
    expect(formatInvoiceNumber(1)).toBe('INV-000001');
    expect(formatInvoiceNumber(1_234_567)).toBe('INV-1234567');
  });
});
