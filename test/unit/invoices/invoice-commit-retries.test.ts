import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/errors.js';
import type { Invoice } from '../../../shared/invoices/invoice-model.js';
import { invoiceKeys, toInvoiceItem } from '../../../shared/invoices/invoice-model.js';
import { finalizeInvoice, refundPayment } from '../../../shared/invoices/invoice-payments-service.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const WS = 'a'.repeat(24);
const INVOICE_ID = 'b'.repeat(24);
const PAYMENT_ID = 'c'.repeat(24);

function invoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: INVOICE_ID, hostId: WS, customerId: 'd'.repeat(24), number: null, currency: 'USD',
    lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: 1000 }], payments: [],
    subtotal: 1000, taxTotal: 0, total: 1000, amountPaid: 0, amountRefunded: 0, amountDue: 1000,
    status: 'draft', autoCharge: false, taxIds: [], version: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function paidInvoice(): Invoice {
  return invoice({
    status: 'paid', number: 'INV-000001', amountPaid: 1000, amountDue: 0,
    payments: [{ id: PAYMENT_ID, status: 'succeeded', amount: 1000, amountRefunded: 0, paidAt: '2026-01-01T00:00:00.000Z', method: 'manual', ledgerEntryId: 'e'.repeat(24), refunds: [] }],
  });
}

function paymentRecord() {
  return { paymentId: PAYMENT_ID, invoiceId: INVOICE_ID, index: 0, amount: 1000, refundable: 1000, currency: 'USD', availableAt: '2026-01-01T00:00:00.000Z' };
}

function cancelled(...codes: string[]): TransactionCanceledException {
  return new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
}

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** Index of the invoice-number counter bump inside a finalize transaction. */
function counterIndex(items: TransactItems): number {
  return items.findIndex((item) => item.Update?.Key?.SK === 'INVOICE_NUMBER');
}

/** Cancels the first transaction with `code` on the counter bump, then lets the next one through. */
function failCounterOnce(code: string): void {
  let failed = false;
  ddbMock.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
    if (failed) return {};
    failed = true;
    const items = input.TransactItems ?? [];
    throw cancelled(...items.map((_, index) => (index === counterIndex(items) ? code : 'None')));
  });
}

function stubReads(stored: Invoice, counterValues: number[]): void {
  ddbMock.on(GetCommand, { Key: invoiceKeys.invoice(WS, INVOICE_ID) }).resolves({ Item: toInvoiceItem(WS, stored) });
  let counter = ddbMock.on(GetCommand, { Key: invoiceKeys.counter(WS) });
  for (const value of counterValues) counter = counter.resolvesOnce({ Item: { lastNumber: value } });
}

beforeEach(() => ddbMock.reset());

describe('finalizeInvoice', () => {
  it('retries the whole transaction after a TransactionConflict and commits once', async () => {
    // Prepare
    stubReads(invoice(), [4, 4]);
    failCounterOnce('TransactionConflict');
    // Act
    const result = await finalizeInvoice(WS, INVOICE_ID, undefined);
    // Assess
    expect(result).toMatchObject({ status: 'open', number: 'INV-000005', version: 2 });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('takes the next number when another finalize won the counter', async () => {
    // Prepare: the counter condition fails once, the re-read sees the winner's number
    stubReads(invoice(), [4, 5]);
    failCounterOnce('ConditionalCheckFailed');
    // Act
    const result = await finalizeInvoice(WS, INVOICE_ID, undefined);
    // Assess
    expect(result.number).toBe('INV-000006');
    const [, second] = ddbMock.commandCalls(TransactWriteCommand);
    const items = second?.args[0].input.TransactItems ?? [];
    const counterUpdate = items[counterIndex(items)]?.Update;
    expect(counterUpdate?.ConditionExpression).toBe('lastNumber = :previous');
    expect(counterUpdate?.ExpressionAttributeValues).toMatchObject({ ':previous': 5, ':next': 6 });
  });

  it('conditions the invoice write on the version it read, with the counter bump and list projections in the same transaction', async () => {
    stubReads(invoice({ version: 7 }), [0]);
    ddbMock.on(TransactWriteCommand).resolves({});
    await finalizeInvoice(WS, INVOICE_ID, undefined);
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items[0]?.Put?.ConditionExpression).toBe('#version = :expectedVersion');
    expect(items[0]?.Put?.ExpressionAttributeValues).toEqual({ ':expectedVersion': 7 });
    expect(items.map((item) => item.Delete?.Key?.PK).filter(Boolean)).toEqual([`WS#${WS}#INVOICE_BY_STATUS#draft`, `WS#${WS}#INVOICE_BY_CUSTOMER_STATUS#${'d'.repeat(24)}#draft`]);
    expect(items.map((item) => item.Put?.Item?.PK)).toContain(`WS#${WS}#INVOICE_BY_STATUS#open`);
    expect(items[counterIndex(items)]?.Update?.ConditionExpression).toBe('attribute_not_exists(lastNumber)');
  });
});

describe('refundPayment', () => {
  it('resumes a reserved refund with the same key without reserving again', async () => {
    // Prepare: a crash left the reservation of key k behind, the invoice does not show the refund yet
    ddbMock.on(GetCommand, { Key: invoiceKeys.invoice(WS, INVOICE_ID) }).resolves({ Item: toInvoiceItem(WS, paidInvoice()) });
    ddbMock.on(GetCommand, { Key: invoiceKeys.paymentRecord(WS, PAYMENT_ID) }).resolves({ Item: paymentRecord() });
    ddbMock.on(GetCommand, { Key: invoiceKeys.refundKeyGuard(WS, PAYMENT_ID, 'k') }).resolves({
      Item: { refundId: 'f'.repeat(24), ledgerEntryId: '9'.repeat(24), amount: 300, refundedAt: '2026-01-02T00:00:00.000Z', state: 'reserved' },
    });
    ddbMock.on(TransactWriteCommand).resolves({});
    // Act
    const refund = await refundPayment(WS, INVOICE_ID, PAYMENT_ID, { amount: 300, idempotencyKey: 'k' });
    // Assess: the reservation is resumed, and only the completion is written
    expect(refund).toMatchObject({ id: 'f'.repeat(24), amount: 300 });
    const calls = ddbMock.commandCalls(TransactWriteCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input.TransactItems?.[0]?.Update?.ConditionExpression).toBe('#state = :reserved');
  });

  it('answers 422 when the conditional decrement of the refundable amount fails in the reservation', async () => {
    // Prepare: the read says 1000 is refundable, a concurrent refund took it before the commit
    ddbMock.on(GetCommand, { Key: invoiceKeys.invoice(WS, INVOICE_ID) }).resolves({ Item: toInvoiceItem(WS, paidInvoice()) });
    ddbMock.on(GetCommand, { Key: invoiceKeys.paymentRecord(WS, PAYMENT_ID) }).resolves({ Item: paymentRecord() });
    ddbMock.on(GetCommand, { Key: invoiceKeys.refundKeyGuard(WS, PAYMENT_ID, 'k') }).resolves({});
    ddbMock.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));
    // Act
    const attempt = refundPayment(WS, INVOICE_ID, PAYMENT_ID, { amount: 600, idempotencyKey: 'k' });
    // Assess
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    const calls = ddbMock.commandCalls(TransactWriteCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input.TransactItems?.[0]?.Update?.ConditionExpression).toBe('refundable >= :amount');
  });
});
