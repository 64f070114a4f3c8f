import { describe, expect, it } from 'vitest';
import { IdempotencyKeyReusedError } from '../../../shared/errors.js';
import type { Payment } from '../../../shared/invoices/invoice-model.js';
import { bodyKeyReused, paymentRequestDifferences, refundRequestDifferences } from '../../../shared/invoices/request-keys.js';

const recorded: Payment = {
  id: 'aaaaaaaaaaaaaaaaaaaaaaa1', status: 'succeeded', amount: 400, amountRefunded: 0, paidAt: '2026-01-02T03:04:05.000Z',
  idempotencyKey: 'k', method: 'manual', refunds: [],
};

describe('paymentRequestDifferences', () => {
  it('finds none for the same request, with or without the paidAt the server chose', () => {
    expect(paymentRequestDifferences(recorded, { amount: 400, idempotencyKey: 'k' })).toEqual([]);
    expect(paymentRequestDifferences(recorded, { amount: 400, idempotencyKey: 'k', paidAt: '2026-01-02T03:04:05Z' })).toEqual([]);
  });

  it('names every field that differs', () => {
    expect(paymentRequestDifferences(recorded, { amount: 401, idempotencyKey: 'k', note: 'n', paidAt: '2026-01-02T03:04:06.000Z' })).toEqual(['amount', 'note', 'paidAt']);
    expect(paymentRequestDifferences({ ...recorded, note: 'n' }, { amount: 400, idempotencyKey: 'k' })).toEqual(['note']);
  });
});

describe('refundRequestDifferences', () => {
  it('compares amount, reason and note', () => {
    const terms = { amount: 100, reason: 'duplicate' as const };
    expect(refundRequestDifferences(terms, { amount: 100, reason: 'duplicate', idempotencyKey: 'r' })).toEqual([]);
    expect(refundRequestDifferences(terms, { amount: 200, idempotencyKey: 'r', note: 'x' })).toEqual(['amount', 'reason', 'note']);
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
