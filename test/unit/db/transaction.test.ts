import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { itemKey, notExists } from '../../../shared/db/table-design.js';
import { transaction } from '../../../shared/db/transaction.js';
import { ConflictError, ServiceUnavailableError, ValidationError, WriteContentionError } from '../../../shared/errors.js';

const ddbMock = mockClient(DynamoDBDocumentClient);

function cancelled(...codes: string[]): TransactionCanceledException {
  return new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
}

class NameTaken extends Error {}
class CounterMoved extends Error {}

function twoItemTransaction() {
  return transaction()
    .put({ ...itemKey('A', '1'), name: 'x' }, { ...notExists(), onFailed: () => new NameTaken() })
    .update({ key: itemKey('B', '2'), update: 'ADD n :one', values: { ':one': 1 }, condition: { expression: 'n = :n', values: { ':n': 3 }, onFailed: () => new CounterMoved() } });
}

beforeEach(() => ddbMock.reset());

describe('transaction builder', () => {
  it('sends every item in one TransactWriteItems with its condition, names and values merged', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await twoItemTransaction().delete(itemKey('C', '3')).commit();
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items).toHaveLength(3);
    expect(items[0]?.Put).toMatchObject({ ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': 'PK' } });
    expect(items[1]?.Update).toMatchObject({ UpdateExpression: 'ADD n :one', ConditionExpression: 'n = :n', ExpressionAttributeValues: { ':one': 1, ':n': 3 } });
    expect(items[2]?.Delete?.Key).toEqual({ PK: 'C', SK: '3' });
  });

  it('throws the domain error of the item whose condition failed, read by its index', async () => {
    ddbMock.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed'));
    await expect(twoItemTransaction().commit()).rejects.toBeInstanceOf(CounterMoved);
  });

  it('prefers the failed condition with the lowest priority when several fail', async () => {
    ddbMock.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'ConditionalCheckFailed'));
    const tx = transaction()
      .update({ key: itemKey('A', '1'), update: 'SET a = :a', values: { ':a': 1 }, condition: { expression: 'b > :a', onFailed: () => new CounterMoved(), priority: 1 } })
      .put(itemKey('B', '2'), { ...notExists(), onFailed: () => new NameTaken(), priority: 0 });
    await expect(tx.commit()).rejects.toBeInstanceOf(NameTaken);
  });

  it('answers a 409 conflict for a failed condition that names no error', async () => {
    ddbMock.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed'));
    await expect(transaction().put(itemKey('A', '1'), notExists()).commit()).rejects.toBeInstanceOf(ConflictError);
  });

  it('sends a transaction that lost a race again, and succeeds when the race is over', async () => {
    ddbMock.on(TransactWriteCommand).rejectsOnce(cancelled('TransactionConflict', 'None')).resolves({});
    await twoItemTransaction().commit();
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('gives up on a race lost every time with a retryable 503, never a 500', async () => {
    ddbMock.on(TransactWriteCommand).rejects(new TransactionConflictException({ message: 'conflict', $metadata: {} }));
    const failure = twoItemTransaction().commit();
    await expect(failure).rejects.toBeInstanceOf(WriteContentionError);
    await expect(failure).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(ddbMock.commandCalls(TransactWriteCommand).length).toBeGreaterThan(1);
  });

  it('turns a transaction cancelled for throttling into a 503 without resending it', async () => {
    ddbMock.on(TransactWriteCommand).rejects(cancelled('ThrottlingError', 'None'));
    await expect(twoItemTransaction().commit()).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('lets other failures through unchanged', async () => {
    const invalid = new ValidationError({ path: 'x', message: 'bad' });
    ddbMock.on(TransactWriteCommand).rejects(invalid);
    await expect(twoItemTransaction().commit()).rejects.toBe(invalid);
  });

  it('includes the items and conditions of another builder', async () => {
    ddbMock.on(TransactWriteCommand).rejects(cancelled('None', 'None', 'ConditionalCheckFailed'));
    const tx = transaction().put(itemKey('Z', '0')).include(twoItemTransaction());
    expect(tx.size).toBe(3);
    await expect(tx.commit()).rejects.toBeInstanceOf(CounterMoved);
  });

  it('sends nothing for an empty transaction', async () => {
    await transaction().commit();
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
