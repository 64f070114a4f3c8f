import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { BackfillRaceError } from '../../../shared/db/backfill.js';
import { invoiceProjectionsBackfill } from '../../../shared/invoices/invoice-backfill.js';
import { toInvoiceItem, type Invoice } from '../../../shared/invoices/invoice-model.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const WS = 'a'.repeat(24);
const stored: Invoice = {
  id: 'b'.repeat(24), hostId: WS, customerId: 'c'.repeat(24), number: 'INV-000001', currency: 'USD',
  lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: 500 }], payments: [],
  subtotal: 500, taxTotal: 0, total: 500, amountPaid: 0, amountRefunded: 0, amountDue: 500,
  status: 'open', autoCharge: false, taxIds: [], version: 4, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
};

beforeEach(() => ddbMock.reset());

describe('invoice projections backfill', () => {
  it('puts the three projections of the invoice as it is, checked against the version it read', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await expect(invoiceProjectionsBackfill.rebuild(toInvoiceItem(WS, stored))).resolves.toBe(3);
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items[0]?.ConditionCheck).toMatchObject({ Key: { PK: `WS#${WS}#INVOICE`, SK: stored.id }, ExpressionAttributeValues: { ':expectedVersion': 4 } });
    expect(items.slice(1).map((item) => item.Put?.Item?.PK)).toEqual([
      `WS#${WS}#INVOICE_BY_CUSTOMER#${stored.customerId}`, `WS#${WS}#INVOICE_BY_STATUS#open`, `WS#${WS}#INVOICE_BY_CUSTOMER_STATUS#${stored.customerId}#open`,
    ]);
  });

  it('skips an invoice that changed since the scan read it instead of writing stale projections', async () => {
    ddbMock.on(TransactWriteCommand).rejects(new TransactionCanceledException({
      message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }],
    }));
    await expect(invoiceProjectionsBackfill.rebuild(toInvoiceItem(WS, stored))).rejects.toBeInstanceOf(BackfillRaceError);
  });
});
