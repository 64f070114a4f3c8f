import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, WriteContentionError } from '../../../shared/errors.js';
import { toPropertyItem } from '../../../shared/properties/property-model.js';
import { createPropertyInWorkspace, updateProperty } from '../../../shared/properties/properties-service.js';
import { aProperty } from './property-factories.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const WS = 'dddddddddddddddddddddddd';

beforeEach(() => ddbMock.reset());

function cancelled(...codes: string[]): TransactionCanceledException {
  return new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
}

function stored(version: number) {
  return { Item: toPropertyItem(WS, aProperty({ version })) };
}

describe('updateProperty', () => {
  it('retries a write that DynamoDB cancelled for TransactionConflict and succeeds', async () => {
    // Prepare
    ddbMock.on(GetCommand).resolves(stored(1));
    ddbMock.on(TransactWriteCommand).rejectsOnce(cancelled('TransactionConflict')).resolves({});
    // Act
    const updated = await updateProperty(WS, aProperty().id, { description: 'retried' });
    // Assess
    expect(updated).toMatchObject({ description: 'retried', version: 2 });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('re-reads and re-applies the patch after losing a version race without If-Match', async () => {
    ddbMock.on(GetCommand).resolvesOnce(stored(1)).resolves(stored(2));
    ddbMock.on(TransactWriteCommand).rejectsOnce(cancelled('ConditionalCheckFailed')).resolves({});
    const updated = await updateProperty(WS, aProperty().id, { description: 'second writer' });
    expect(updated).toMatchObject({ description: 'second writer', version: 3 });
  });

  it('answers ConflictError without writing when If-Match is stale', async () => {
    ddbMock.on(GetCommand).resolves(stored(4));
    await expect(updateProperty(WS, aProperty().id, { description: 'x' }, 3)).rejects.toBeInstanceOf(ConflictError);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers ConflictError when a race is lost with If-Match', async () => {
    ddbMock.on(GetCommand).resolves(stored(1));
    ddbMock.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed'));
    await expect(updateProperty(WS, aProperty().id, { description: 'x' }, 1)).rejects.toBeInstanceOf(ConflictError);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('answers NotFoundError for an absent property', async () => {
    ddbMock.on(GetCommand).resolves({});
    await expect(updateProperty(WS, aProperty().id, { description: 'x' })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('createPropertyInWorkspace', () => {
  it('retries a create cancelled for TransactionConflict', async () => {
    ddbMock.on(TransactWriteCommand).rejectsOnce(cancelled('TransactionConflict', 'None')).resolves({});
    const property = await createPropertyInWorkspace(WS, { type: 'Text', name: 'Nickname', objectType: 'contact' });
    expect(property).toMatchObject({ name: 'Nickname', version: 1 });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('gives up with a 503 WriteContentionError after repeated contention (nothing was written: the client may retry)', async () => {
    ddbMock.on(TransactWriteCommand).rejects(cancelled('TransactionConflict', 'None'));
    await expect(createPropertyInWorkspace(WS, { type: 'Text', name: 'Nickname', objectType: 'contact' })).rejects.toBeInstanceOf(WriteContentionError);
  });
});
