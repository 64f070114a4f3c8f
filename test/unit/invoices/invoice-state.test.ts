import { describe, expect, it } from 'vitest';
import { InvalidStateError, ValidationError } from '../../../shared/errors.js';
import { INVOICE_STATUSES } from '../../../shared/invoices/invoice-model.js';
import { ALLOWED_FROM, assertAllowed, assertPayable, assertVoidable, statusAfterPayment, type InvoiceAction } from '../../../shared/invoices/invoice-state.js';

const EXPECTED: Record<InvoiceAction, string[]> = {
  revise: ['draft'],
  finalize: ['draft'],
  charge: ['open', 'payment_failed'],
  record_payment: ['open', 'payment_failed'],
  refund: ['open', 'payment_failed', 'paid'],
  void: ['draft', 'open', 'payment_failed'],
};

describe('assertAllowed', () => {
  for (const action of Object.keys(EXPECTED) as InvoiceAction[]) {
    for (const status of INVOICE_STATUSES) {
      const allowed = EXPECTED[action].includes(status);
      it(`${allowed ? 'allows' : 'refuses'} ${action} from ${status}`, () => {
        if (allowed) expect(() => assertAllowed(action, status)).not.toThrow();
        else expect(() => assertAllowed(action, status)).toThrow(InvalidStateError);
      });
    }
  }

  it.each([
    ['record_payment', 'draft', 'Cannot record a payment on an invoice in status draft.'],
    ['refund', 'void', 'Cannot refund a payment of an invoice in status void.'],
    ['finalize', 'open', 'Cannot finalize an invoice in status open.'],
  ] as const)('explains a refused %s from %s in plain words', (action, status, message) => {
    // Act
    const act = () => assertAllowed(action, status);
    // Assess
    expect(act).toThrow(message);
  });

  it('documents the same table it enforces', () => {
    expect(ALLOWED_FROM).toEqual(EXPECTED);
  });
});

describe('assertVoidable', () => {
  it('refuses to void an invoice that took money', () => {
    expect(() => assertVoidable('open', 1)).toThrow(InvalidStateError);
    expect(() => assertVoidable('open', 0)).not.toThrow();
  });
});

describe('assertPayable', () => {
  it('refuses an amount above amountDue with a 422 on amount', () => {
    expect(() => assertPayable(101, 100)).toThrow(ValidationError);
    expect(() => assertPayable(100, 100)).not.toThrow();
  });
});

describe('statusAfterPayment', () => {
  it('pays in full, keeps partial payments in place and fails failed attempts', () => {
    expect(statusAfterPayment('open', 'succeeded', 0)).toBe('paid');
    expect(statusAfterPayment('payment_failed', 'succeeded', 10)).toBe('payment_failed');
    expect(statusAfterPayment('open', 'succeeded', 10)).toBe('open');
    expect(statusAfterPayment('open', 'failed', 10)).toBe('payment_failed');
  });
});
