import { describe, expect, it } from 'vitest';
import type { ValidationError } from '../../../shared/errors.js';
import type { Invoice } from '../../../shared/invoices/invoice-model.js';
import { fromInvoiceItem, lineItemSchema, projectionChanges, assertPaidAtNotFuture, toInvoiceItem } from '../../../shared/invoices/invoice-model.js';

const WS = 'a'.repeat(24);

function invoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: 'b'.repeat(24), hostId: WS, customerId: 'c'.repeat(24), number: null, currency: 'USD',
    lineItems: [{ description: 'Ticket', quantity: 2, unitAmount: 500, taxAmount: 50 }], payments: [],
    subtotal: 0, taxTotal: 0, total: 0, amountPaid: 0, amountRefunded: 0, amountDue: 0,
    status: 'draft', autoCharge: false, taxIds: [], version: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('projectionChanges', () => {
  it('puts the customer, status and customer+status projections for a new invoice', () => {
    const { puts, deletes } = projectionChanges(WS, undefined, invoice());
    expect(deletes).toEqual([]);
    expect(puts.map((item) => item.PK)).toEqual([
      `WS#${WS}#INVOICE_BY_CUSTOMER#${'c'.repeat(24)}`, `WS#${WS}#INVOICE_BY_STATUS#draft`, `WS#${WS}#INVOICE_BY_CUSTOMER_STATUS#${'c'.repeat(24)}#draft`,
    ]);
  });

  it('moves the status projection and refreshes the customer one on a status change', () => {
    const { puts, deletes } = projectionChanges(WS, invoice(), invoice({ status: 'open' }));
    expect(deletes.map((key) => key.PK)).toEqual([`WS#${WS}#INVOICE_BY_STATUS#draft`, `WS#${WS}#INVOICE_BY_CUSTOMER_STATUS#${'c'.repeat(24)}#draft`]);
    expect(puts.map((item) => [item.PK, item.status])).toEqual([
      [`WS#${WS}#INVOICE_BY_CUSTOMER#${'c'.repeat(24)}`, 'open'], [`WS#${WS}#INVOICE_BY_STATUS#open`, 'open'], [`WS#${WS}#INVOICE_BY_CUSTOMER_STATUS#${'c'.repeat(24)}#open`, 'open'],
    ]);
  });

  it('writes nothing when neither status nor customer changed', () => {
    expect(projectionChanges(WS, invoice(), invoice({ notes: 'x', version: 2 }))).toEqual({ puts: [], deletes: [] });
  });
});

describe('fromInvoiceItem', () => {
  it('recomputes totals and refund sums from the stored line items and payments', () => {
    const stored = toInvoiceItem(WS, invoice({
      status: 'open',
      payments: [{ id: 'd'.repeat(24), status: 'succeeded', amount: 300, amountRefunded: 999, paidAt: '2026-01-01T00:00:00.000Z', method: 'manual', refunds: [
        { id: 'e'.repeat(24), paymentId: 'd'.repeat(24), amount: 100, refundedAt: '2026-01-01T00:00:00.000Z', idempotencyKey: 'k', ledgerEntryId: 'f'.repeat(24) },
      ] }],
    }));
    const read = fromInvoiceItem(stored);
    expect(read).toMatchObject({ subtotal: 1000, taxTotal: 50, total: 1050, amountPaid: 300, amountRefunded: 100, amountDue: 750 });
    expect(read.payments[0]?.amountRefunded).toBe(100);
    expect(read).not.toHaveProperty('PK');
  });
});

describe('assertPaidAtNotFuture', () => {
  const now = new Date('2026-06-01T12:00:00.000Z');
  const problemsOf = (paidAt: string | undefined): string[] => {
    try {
      assertPaidAtNotFuture(paidAt, now);
      return [];
    } catch (error) {
      return (error as ValidationError).details.map((detail) => `${detail.path}: ${detail.message}`);
    }
  };

  it('refuses a paidAt in the future on paidAt, beyond 5 minutes of clock skew', () => {
    expect(problemsOf('2035-01-01T00:00:00Z')).toEqual(['paidAt: must not be in the future']);
    expect(problemsOf('2026-06-01T12:05:01Z')).toHaveLength(1);
    expect(problemsOf('2026-06-01T14:04:00+02:00')).toHaveLength(0);
  });

  it('accepts a backdated paidAt (an offline payment recorded late) and none at all', () => {
    expect(problemsOf('2020-01-01T00:00:00Z')).toHaveLength(0);
    expect(problemsOf(undefined)).toHaveLength(0);
  });
});

describe('line item event snapshots', () => {
  const line = { description: 'Ticket', quantity: 1, unitAmount: 500 };
  const issuePaths = (value: unknown) => {
    const parsed = lineItemSchema.safeParse(value);
    return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
  };

  it('refuses an event that ends before it starts, on the line and on a bundle component', () => {
    const component = { productId: 'p', productName: 'Parking', eventStart: '2030-06-01T18:00:00Z', eventEnd: '2030-06-01T17:59:59Z' };
    expect(issuePaths({ ...line, eventStart: '2030-06-01T18:00:00+02:00', eventEnd: '2030-06-01T15:00:00Z' })).toEqual(['eventEnd']);
    expect(issuePaths({ ...line, productType: 'bundle', components: [component] })).toEqual(['components.0.eventEnd']);
  });

  it('accepts an event that ends when or after it starts (offsets compared as instants), or with one end missing', () => {
    expect(issuePaths({ ...line, eventStart: '2030-06-01T18:00:00+02:00', eventEnd: '2030-06-01T16:00:00Z' })).toEqual([]);
    expect(issuePaths({ ...line, eventStart: '2030-06-01T18:00:00Z' })).toEqual([]);
    expect(issuePaths({ ...line, eventEnd: '2030-06-01T18:00:00Z' })).toEqual([]);
  });
});
