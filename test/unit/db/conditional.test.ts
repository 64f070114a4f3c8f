import { ConditionalCheckFailedException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { deleteItem, putItem, updateItem } from '../../../shared/db/conditional.js';
import { itemKey, notExists } from '../../../shared/db/table-design.js';
import { ItemTooLargeError } from '../../../shared/db/transaction.js';
import { withWriteFence, type WriteFence } from '../../../shared/db/write-fence.js';
import { ConflictError, WriteContentionError } from '../../../shared/errors.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
beforeEach(() => ddbMock.reset());

class Taken extends Error {}

function fence(): WriteFence {
  return { tableName: 'idempotency', keyAttribute: 'id', expiryAttribute: 'expiration', item: { id: 'applied#1', expiration: 2_000_000_000 }, committed: false };
}

describe('conditional single-item writes', () => {
  it('throws the condition\'s own error when it fails', async () => {
    ddbMock.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'x', $metadata: {} }));
    await expect(putItem(itemKey('A', '1'), { ...notExists(), onFailed: () => new Taken() })).rejects.toBeInstanceOf(Taken);
  });

  it('turns a write refused by a transaction holding the item into contention (nothing written, retryable)', async () => {
    ddbMock.on(UpdateCommand).rejects(new TransactionConflictException({ message: 'Transaction is ongoing for the item', $metadata: {} }));
    const failure = updateItem({ key: itemKey('A', '1'), update: 'SET a = :a', values: { ':a': 1 } });
    await expect(failure).rejects.toBeInstanceOf(WriteContentionError);
    await expect(failure).rejects.not.toBeInstanceOf(ConflictError);
  });

  it('turns a single Put or Update refused for the item size into ItemTooLargeError (a 422), like a transaction', async () => {
    ddbMock.on(PutCommand).rejects(Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' }));
    ddbMock.on(UpdateCommand).rejects(Object.assign(new Error('Item size to update has exceeded the maximum allowed size'), { name: 'ValidationException' }));
    await expect(putItem(itemKey('A', '1'))).rejects.toBeInstanceOf(ItemTooLargeError);
    await expect(updateItem({ key: itemKey('A', '1'), update: 'SET a = :a', values: { ':a': 'x' } })).rejects.toBeInstanceOf(ItemTooLargeError);
  });

  it('inside an idempotent request, writes with its "applied" marker in one transaction', async () => {
    // Prepare
    ddbMock.on(TransactWriteCommand).resolves({});
    ddbMock.on(UpdateCommand).resolves({ Attributes: { ...itemKey('B', '2'), a: 1 } });
    // Act
    const updated = await withWriteFence(fence(), async () => {
      await putItem(itemKey('A', '1'), notExists());
      return updateItem({ key: itemKey('B', '2'), update: 'SET a = :a', values: { ':a': 1 } });
    });
    // Assess: the first write carries the marker; the second, its job done, goes alone
    const sent = ddbMock.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems ?? []);
    expect(sent[0]?.map((item) => Object.keys(item)[0])).toEqual(['Put', 'Put']);
    expect(sent[0]?.[1]?.Put?.TableName).toBe('idempotency');
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(0);
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(1);
    expect(updated).toMatchObject({ a: 1 });
  });

  it('reads an update back when it had to go as a transaction (a transaction returns no attributes)', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    // The first read back fails: the change is committed, so it is read again rather than answered as an error
    ddbMock.on(GetCommand).rejectsOnce(Object.assign(new Error('timed out'), { name: 'TimeoutError', $metadata: {} })).resolves({ Item: { ...itemKey('B', '2'), a: 2 } });
    const updated = await withWriteFence(fence(), () => updateItem({ key: itemKey('B', '2'), update: 'SET a = :a', values: { ':a': 2 } }));
    expect(updated).toMatchObject({ a: 2 });
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(2);
    expect(ddbMock.commandCalls(GetCommand)[0]?.args[0].input.ConsistentRead).toBe(true);
  });

  it('deletes with the marker too', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await withWriteFence(fence(), () => deleteItem(itemKey('A', '1')));
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.map((item) => Object.keys(item)[0])).toEqual(['Delete', 'Put']);
  });
});
