import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { toCheckoutItem } from '../../../shared/checkouts/checkout-entity.js';
import { CheckoutVersionConflictError, insertCheckout, replaceCheckout, softDeleteCheckout } from '../../../shared/checkouts/checkouts-repository.js';
import { deleteCheckout, updateCheckout } from '../../../shared/checkouts/checkouts-service.js';
import { checkoutRecord } from './factories.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const WS = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'failed', $metadata: {} });
const transactionCanceled = () => new TransactionCanceledException({ message: 'canceled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] });

beforeEach(() => ddbMock.reset());

describe('checkouts repository', () => {
  it('replaces conditionally on the version read and maps a failed condition to a version conflict', async () => {
    // Prepare
    ddbMock.on(PutCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    const record = checkoutRecord({ version: 3 });
    // Act
    await replaceCheckout(WS, record, 2);
    // Assess
    const input = ddbMock.commandCalls(PutCommand)[0]?.args[0].input;
    expect(input?.ConditionExpression).toBe('#version = :read');
    expect(input?.ExpressionAttributeValues).toEqual({ ':read': 2 });
    expect(input?.Item).toMatchObject({ PK: `WS#${WS}#CHECKOUTS`, SK: record.id, entity: 'Checkout' });
    await expect(replaceCheckout(WS, record, 2)).rejects.toBeInstanceOf(CheckoutVersionConflictError);
  });

  it('soft-deletes in one transaction: conditional delete of the live item, put of the kept record', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const record = checkoutRecord({ version: 2 });
    await softDeleteCheckout(WS, record, '2030-01-01T00:00:00.000Z');
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items).toHaveLength(2);
    expect(items[0]?.Delete).toMatchObject({ Key: { PK: `WS#${WS}#CHECKOUTS`, SK: record.id }, ExpressionAttributeValues: { ':read': 2 } });
    expect(items[1]?.Put?.Item).toMatchObject({ PK: `WS#${WS}#CHECKOUTS#DELETED`, SK: record.id, entity: 'DeletedCheckout', deletedAt: '2030-01-01T00:00:00.000Z' });
  });

  it('maps a cancelled delete transaction to a version conflict', async () => {
    ddbMock.on(TransactWriteCommand).rejects(transactionCanceled());
    await expect(softDeleteCheckout(WS, checkoutRecord(), 'now')).rejects.toBeInstanceOf(CheckoutVersionConflictError);
  });

  it('turns an item above the DynamoDB size limit into a 422', async () => {
    ddbMock.on(PutCommand).rejects(Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' }));
    await expect(insertCheckout(WS, checkoutRecord())).rejects.toMatchObject({ code: 'validation_failed', details: [{ path: 'products' }] });
  });
});

describe('checkouts service concurrency', () => {
  it('re-applies a PATCH without If-Match on a fresh read when a concurrent write wins', async () => {
    // Prepare
    const stored = checkoutRecord({ description: 'kept' });
    ddbMock.on(GetCommand).resolvesOnce({ Item: toCheckoutItem(WS, stored) }).resolves({ Item: toCheckoutItem(WS, { ...stored, version: 2, timeslotId: 'concurrent' }) });
    ddbMock.on(PutCommand).rejectsOnce(conditionFailed()).resolves({});
    // Act
    const saved = await updateCheckout(WS, stored.id, { name: 'Renamed' }, { baseUrl: 'https://api.test' });
    // Assess
    expect(saved).toMatchObject({ name: 'Renamed', description: 'kept', timeslotId: 'concurrent', version: 3 });
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(2);
  });

  it('answers 409 at once with a stale If-Match, without writing', async () => {
    const stored = checkoutRecord({ version: 4 });
    ddbMock.on(GetCommand).resolves({ Item: toCheckoutItem(WS, stored) });
    await expect(updateCheckout(WS, stored.id, { name: 'x' }, { baseUrl: 'https://api.test', ifMatch: 3 })).rejects.toBeInstanceOf(CheckoutVersionConflictError);
    await expect(deleteCheckout(WS, stored.id, 3)).rejects.toBeInstanceOf(CheckoutVersionConflictError);
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(0);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('gives up with 409 after five lost races', async () => {
    const stored = checkoutRecord();
    ddbMock.on(GetCommand).resolves({ Item: toCheckoutItem(WS, stored) });
    ddbMock.on(TransactWriteCommand).rejects(transactionCanceled());
    await expect(deleteCheckout(WS, stored.id)).rejects.toBeInstanceOf(CheckoutVersionConflictError);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(5);
  });

  it('is a 404 when the checkout is gone', async () => {
    ddbMock.on(GetCommand).resolves({});
    await expect(updateCheckout(WS, 'b'.repeat(24), { name: 'x' }, { baseUrl: 'https://api.test' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
