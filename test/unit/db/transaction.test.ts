import { InternalServerError, TransactionCanceledException, TransactionConflictException, TransactionInProgressException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { itemKey, notExists } from '../../../shared/db/table-design.js';
import { ItemTooLargeError, escapedWriteFailure, transaction } from '../../../shared/db/transaction.js';
import { withWriteFence, type WriteFence } from '../../../shared/db/write-fence.js';
import { ConflictError, RequestAlreadyAppliedError, ServiceUnavailableError, ValidationError, WriteContentionError } from '../../../shared/errors.js';

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

  it('turns an oversized item into ItemTooLargeError, whether refused before the transaction or as its cancellation reason', async () => {
    ddbMock.on(TransactWriteCommand)
      .rejectsOnce(Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' }))
      .rejectsOnce(new TransactionCanceledException({
        message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'None' }, { Code: 'ValidationError', Message: 'Item size to update has exceeded the maximum allowed size' }],
      }));
    await expect(twoItemTransaction().commit()).rejects.toBeInstanceOf(ItemTooLargeError);
    await expect(twoItemTransaction().commit()).rejects.toBeInstanceOf(ItemTooLargeError);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('throws the caller\'s error for an oversized item when given one, without sending again', async () => {
    ddbMock.on(TransactWriteCommand).rejects(Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' }));
    const tooLarge = new Error('the form is too large');
    await expect(twoItemTransaction().commit({ onTooLarge: () => tooLarge })).rejects.toBe(tooLarge);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
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

  it('resends after a timeout with the same ClientRequestToken when the write records an effect made elsewhere', async () => {
    // Prepare: the first send times out (it may have committed), the second succeeds
    const timeout = Object.assign(new Error('request timed out'), { name: 'TimeoutError', $metadata: {} });
    ddbMock.on(TransactWriteCommand).rejectsOnce(timeout).resolves({});
    // Act
    await twoItemTransaction().commit({ resendOnTransientFailure: true });
    // Assess: DynamoDB applies a token once, so a send that did commit is not applied twice
    const tokens = ddbMock.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.ClientRequestToken);
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(tokens[1]).toBe(tokens[0]);
  });

  it('sends a lost race again with a new token (the cancelled send wrote nothing)', async () => {
    ddbMock.on(TransactWriteCommand).rejectsOnce(cancelled('TransactionConflict', 'None')).resolves({});
    await twoItemTransaction().commit();
    const tokens = ddbMock.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.ClientRequestToken);
    expect(new Set(tokens).size).toBe(2);
  });

  it('gives up after a few transient failures even when resending, and never resends without being asked', async () => {
    ddbMock.on(TransactWriteCommand).rejects(new InternalServerError({ message: 'boom', $metadata: { httpStatusCode: 500 } }));
    await expect(twoItemTransaction().commit({ resendOnTransientFailure: true })).rejects.toBeInstanceOf(InternalServerError);
    const resent = ddbMock.commandCalls(TransactWriteCommand).length;
    expect(resent).toBeGreaterThan(1);
    expect(resent).toBeLessThan(10);
    ddbMock.resetHistory();
    await expect(twoItemTransaction().commit()).rejects.toBeInstanceOf(InternalServerError);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});

function fence(): WriteFence {
  return { tableName: 'idempotency', keyAttribute: 'id', expiryAttribute: 'expiration', item: { id: 'applied#1', expiration: 2_000_000_000 }, committed: false };
}

describe('the "applied" marker of an idempotent request', () => {
  it('goes with the first committed transaction of the request, into its own table, and not again', async () => {
    // Prepare
    ddbMock.on(TransactWriteCommand).resolves({});
    // Act
    await withWriteFence(fence(), async () => {
      await twoItemTransaction().commit();
      await transaction().put(itemKey('C', '3')).commit();
    });
    // Assess
    const [first, second] = ddbMock.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems ?? []);
    expect(first).toHaveLength(3);
    expect(first?.[2]?.Put).toMatchObject({ TableName: 'idempotency', Item: { id: 'applied#1' }, ConditionExpression: 'attribute_not_exists(#fenceKey) OR #fenceExpiry < :fenceNow' });
    expect(second).toHaveLength(1);
  });

  it('refuses a rerun of an applied request as a whole, whatever other condition failed with it', async () => {
    ddbMock.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'ConditionalCheckFailed'));
    const rerun = withWriteFence(fence(), () => twoItemTransaction().commit());
    await expect(rerun).rejects.toBeInstanceOf(RequestAlreadyAppliedError);
  });

  it('stays off a resumable step: the write that finishes the change carries it', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await withWriteFence(fence(), async () => {
      await twoItemTransaction().resumableStep().commit();
      await transaction().put(itemKey('C', '3')).commit();
    });
    const [step, finish] = ddbMock.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems ?? []);
    expect(step).toHaveLength(2);
    expect(finish).toHaveLength(2);
    expect(finish?.[1]?.Put?.TableName).toBe('idempotency');
  });

  it('is not marked written when the transaction failed', async () => {
    ddbMock.on(TransactWriteCommand).rejectsOnce(cancelled('ThrottlingError', 'None', 'None')).resolves({});
    const marker = fence();
    await withWriteFence(marker, async () => {
      await expect(twoItemTransaction().commit()).rejects.toBeInstanceOf(ServiceUnavailableError);
      await twoItemTransaction().commit();
    });
    expect(ddbMock.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems?.length)).toEqual([3, 3]);
    expect(marker.committed).toBe(true);
  });
});

describe('failed writes that escaped the toolkit', () => {
  it.each([
    ['a transaction cancelled for throttling', cancelled('None', 'ThrottlingError'), false],
    ['a transaction that lost a race', cancelled('TransactionConflict', 'None'), true],
    ['a single write refused by a transaction in progress', new TransactionConflictException({ message: 'x', $metadata: {} }), true],
    ['a transaction whose token is still in progress', new TransactionInProgressException({ message: 'x', $metadata: {} }), false],
  ])('%s is a retryable 503 (contention: %s)', (_name, error, contention) => {
    const mapped = escapedWriteFailure(error);
    expect(mapped).toBeInstanceOf(ServiceUnavailableError);
    expect(mapped instanceof WriteContentionError).toBe(contention);
  });

  it('maps a failed condition nobody mapped to 409, and leaves other cancellations unknown (500)', () => {
    expect(escapedWriteFailure(cancelled('None', 'ConditionalCheckFailed'))).toBeInstanceOf(ConflictError);
    expect(escapedWriteFailure(cancelled('ValidationError'))).toBeUndefined();
    expect(escapedWriteFailure(new Error('x'))).toBeUndefined();
  });
});
