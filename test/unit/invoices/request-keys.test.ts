import { describe, expect, it } from 'vitest';
import { IdempotencyKeyReusedError } from '../../../shared/errors.js';
import type { Payment } from '../../../shared/invoices/invoice-model.js';
import { bodyKeyReused, paymentRequestDifferences, refundRequestDifferences } from '../../../shared/invoices/request-keys.js';

const recorded: Payment = {
  id: 'aaaaaaaaaaaaaaaaaaaaaaa1', status: 'succeeded', amount: 400, amountRefunded: 0, paidAt: '2026-01-02T03:04:05.000Z',
  idempotencyKey: 'k', method: 'manual', refunds: [],
};

describe('paymentRequestDifferences', () => {
  it('finds none for the same amount, whatever the note and paidAt of the repeat', () => {
    expect(paymentRequestDifferences(recorded, { amount: 400, idempotencyKey: 'k' })).toEqual([]);
    expect(paymentRequestDifferences({ ...recorded, note: 'cash' }, { amount: 400, idempotencyKey: 'k' })).toEqual([]);
    expect(paymentRequestDifferences(recorded, { amount: 400, idempotencyKey: 'k', note: 'n', paidAt: '2026-01-03T00:00:00.000Z' })).toEqual([]);
  });

  it('names the amount when it differs', () => {
    expect(paymentRequestDifferences(recorded, { amount: 401, idempotencyKey: 'k', note: 'n' })).toEqual(['amount']);
  });
});

describe('refundRequestDifferences', () => {
  it('compares the amount only, not reason or note', () => {
    const terms = { amount: 100, reason: 'duplicate' as const, note: 'first' };
    expect(refundRequestDifferences(terms, { amount: 100, idempotencyKey: 'r' })).toEqual([]);
    expect(refundRequestDifferences(terms, { amount: 100, reason: 'fraudulent', note: 'x', idempotencyKey: 'r' })).toEqual([]);
    expect(refundRequestDifferences(terms, { amount: 200, reason: 'duplicate', note: 'first', idempotencyKey: 'r' })).toEqual(['amount']);
  });
});

describe('bodyKeyReused', () => {
  it('is a 409 idempotency_key_reused that says what differs and what to do, without echoing the key', () => {
    const error = bodyKeyReused('a payment on this invoice', 400, ['amount']);
    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(error.code).toBe('idempotency_key_reused');
    expect(error.message).toBe('This idempotencyKey was already used for a payment on this invoice (amount 400); this request differs in amount. '
      + 'Repeat the original request to get that record back, or use a new idempotencyKey for a new one. Nothing was changed.');
  });
});
