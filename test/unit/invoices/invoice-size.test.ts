import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../../shared/errors.js';
import { invoiceKeys, toInvoiceItem, type Invoice, type LineItem } from '../../../shared/invoices/invoice-model.js';
import { chargeInvoice, recordPayment, refundPayment } from '../../../shared/invoices/invoice-payments-service.js';
import { INVOICE_LIMITS, assertInvoiceSize, assertRoomFor, serializedBytes } from '../../../shared/invoices/invoice-size.js';
import type { PaymentProcessor } from '../../../shared/payments/payment-processor.js';
import { usePaymentProcessor } from '../../../shared/payments/processor-registry.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const WS = 'a'.repeat(24);
const INVOICE_ID = 'b'.repeat(24);
const PAYMENT_ID = 'c'.repeat(24);

/** A line with every text field at its documented maximum (about 7.5 KB serialized). */
function maximalLine(): LineItem {
  return {
    description: 'd'.repeat(1000), quantity: 1, unitAmount: 100, productId: 'p'.repeat(200), priceId: 'r'.repeat(200),
    productName: 'n'.repeat(500), productImageUrl: `https://img.example.com/${'a'.repeat(1976)}`,
    eventName: 'e'.repeat(500), eventImageUrl: `https://img.example.com/${'b'.repeat(1976)}`, eventLocation: 'l'.repeat(1000),
  };
}

function invoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: INVOICE_ID, hostId: WS, customerId: 'd'.repeat(24), number: 'INV-000001', currency: 'USD',
    lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: 1000 }], payments: [],
    subtotal: 1000, taxTotal: 0, total: 1000, amountPaid: 0, amountRefunded: 0, amountDue: 1000,
    status: 'open', autoCharge: false, taxIds: [], version: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A paid invoice whose card payment leaves `room` bytes below the stored bound. */
function fullPaidInvoice(room: number, overrides: Partial<Invoice> = {}): Invoice {
  const base = invoice({
    status: 'paid', amountPaid: 1000, amountDue: 0,
    payments: [{ id: PAYMENT_ID, status: 'succeeded', amount: 1000, amountRefunded: 0, paidAt: '2026-01-01T00:00:00.000Z', method: 'card', chargeId: 'ch_1', externalId: 'pi_1', ledgerEntryId: 'e'.repeat(24), refunds: [] }],
    ...overrides,
  });
  return { ...base, notes: 'x'.repeat(INVOICE_LIMITS.maxStoredBytes - room - serializedBytes({ ...base, notes: '' })) };
}

function recordingProcessor() {
  const processor = {
    name: 'recording',
    settlementDelaySeconds: () => 0,
    charge: vi.fn<PaymentProcessor['charge']>(async () => ({ status: 'succeeded' as const, intentId: 'pi_2', chargeId: 'ch_2' })),
    refund: vi.fn<PaymentProcessor['refund']>(async () => ({ refundId: 're_1' })),
  };
  usePaymentProcessor(processor);
  return processor;
}

function storeInvoice(stored: Invoice): void {
  ddbMock.on(GetCommand, { Key: invoiceKeys.invoice(WS, INVOICE_ID) }).resolves({ Item: toInvoiceItem(WS, stored) });
  ddbMock.on(GetCommand, { Key: invoiceKeys.paymentRecord(WS, PAYMENT_ID) }).resolves({
    Item: { paymentId: PAYMENT_ID, invoiceId: INVOICE_ID, index: 0, amount: 1000, refundable: 1000, currency: 'USD', availableAt: '2026-01-01T00:00:00.000Z', chargeId: 'ch_1' },
  });
  ddbMock.on(GetCommand, { Key: invoiceKeys.refundKeyGuard(WS, PAYMENT_ID, 'k') }).resolves({});
  ddbMock.on(GetCommand, { Key: { PK: `WS#${WS}#CONTACT`, SK: 'd'.repeat(24) } }).resolves({ Item: { id: 'd'.repeat(24), email: 'a@example.com', defaultPaymentMethod: 'pm_card_visa' } });
  ddbMock.on(TransactWriteCommand).resolves({});
}

beforeEach(() => ddbMock.reset());
afterEach(() => usePaymentProcessor(undefined));

describe('assertInvoiceSize (create and revise)', () => {
  it('accepts an invoice up to the bound and refuses a larger one with a 422 on lineItems that says what to shorten', () => {
    expect(() => assertInvoiceSize(invoice({ lineItems: Array.from({ length: 39 }, maximalLine) }))).not.toThrow();
    const tooLarge = invoice({ lineItems: Array.from({ length: 60 }, maximalLine) });
    expect(() => assertInvoiceSize(tooLarge)).toThrow(ValidationError);
    try {
      assertInvoiceSize(tooLarge);
    } catch (error) {
      expect((error as ValidationError).details[0]).toMatchObject({ path: 'lineItems', message: expect.stringMatching(/too large .*at most 300000.*fewer line items or shorten/) });
    }
  });
});

describe('assertRoomFor (payments and refunds)', () => {
  it('refuses an entry that would take the invoice above the stored bound, saying it has no room', () => {
    const full = fullPaidInvoice(1_000);
    expect(() => assertRoomFor(full, 500, 'refunds')).not.toThrow();
    expect(() => assertRoomFor(full, 2_500, 'refunds')).toThrow(/no room for more refunds/);
    expect(() => assertRoomFor(full, 2_500, 'payments')).toThrow(/no room for more payments/);
  });
});

describe('an invoice with no room left', () => {
  it('refuses a refund with 422 before its reservation (the first write) and before the processor refunds', async () => {
    // Prepare: room for a short refund, not for one with a 2,000-character note
    const processor = recordingProcessor();
    storeInvoice(fullPaidInvoice(1_000));
    // Act
    const attempt = refundPayment(WS, INVOICE_ID, PAYMENT_ID, { amount: 100, idempotencyKey: 'k', note: 'n'.repeat(2000) });
    // Assess
    await expect(attempt).rejects.toThrow(/no room for more refunds/);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(processor.refund).not.toHaveBeenCalled();
  });

  it('still refunds when the refund fits', async () => {
    const processor = recordingProcessor();
    storeInvoice(fullPaidInvoice(1_000));
    await expect(refundPayment(WS, INVOICE_ID, PAYMENT_ID, { amount: 100, idempotencyKey: 'k' })).resolves.toMatchObject({ amount: 100 });
    expect(processor.refund).toHaveBeenCalledOnce();
  });

  it('refuses a card charge before the processor charges, and a manual payment before anything is written', async () => {
    const processor = recordingProcessor();
    storeInvoice(fullPaidInvoice(500, { status: 'open', lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: 2000 }] }));
    await expect(chargeInvoice(WS, INVOICE_ID)).rejects.toThrow(/no room for more payments/);
    expect(processor.charge).not.toHaveBeenCalled();
    await expect(recordPayment(WS, INVOICE_ID, { amount: 10, idempotencyKey: 'p', note: 'n'.repeat(2000) })).rejects.toThrow(/no room for more payments/);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
