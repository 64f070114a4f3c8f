import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { toPropertyItem } from '../../../shared/properties/property-entity.js';
import {
  PropertyNameTakenError, PropertyVersionConflictError, createProperty, getPropertiesByIds, saveProperty,
} from '../../../shared/properties/properties-repository.js';
import { aProperty } from './property-factories.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const WS = 'dddddddddddddddddddddddd';

beforeEach(() => ddbMock.reset());

function cancelled(codes: string[]): TransactionCanceledException {
  return new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

function idOf(n: number): string {
  return n.toString(16).padStart(24, '0');
}

describe('createProperty', () => {
  it('writes the property and its name guard in one transaction', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await createProperty(WS, aProperty({ name: 'Diet', objectType: 'order' }));
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items).toHaveLength(2);
    expect(items[1]?.Put?.Item).toMatchObject({ PK: `WS#${WS}#PROPNAME`, SK: 'order#diet', entity: 'PropertyNameGuard' });
  });

  it('turns a failed guard condition into PropertyNameTakenError (409)', async () => {
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed']));
    await expect(createProperty(WS, aProperty())).rejects.toBeInstanceOf(PropertyNameTakenError);
  });
});

describe('saveProperty', () => {
  it('releases the old guard and claims the new one in the same transaction on rename', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const current = aProperty({ name: 'Old' });
    await saveProperty(WS, current, { ...current, name: 'New', version: 2 });
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items.map((item) => Object.keys(item)[0])).toEqual(['Put', 'Delete', 'Put']);
    expect(items[1]?.Delete?.Key).toEqual({ PK: `WS#${WS}#PROPNAME`, SK: 'contact#old' });
    expect(items[2]?.Put?.Item).toMatchObject({ SK: 'contact#new' });
  });

  it('touches no guard when only the case of the name changes', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const current = aProperty({ name: 'Old' });
    await saveProperty(WS, current, { ...current, name: 'OLD', version: 2 });
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems).toHaveLength(1);
  });

  it('keeps the guard\'s status copy in step on archive', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const current = aProperty({ name: 'Old' });
    await saveProperty(WS, current, { ...current, status: 'archived', version: 2 });
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items[1]?.Update).toMatchObject({ Key: { PK: `WS#${WS}#PROPNAME`, SK: 'contact#old' }, ExpressionAttributeValues: { ':status': 'archived' } });
  });

  it.each([
    ['the version condition', ['ConditionalCheckFailed', 'None', 'None'], PropertyVersionConflictError],
    ['the new guard', ['None', 'None', 'ConditionalCheckFailed'], PropertyNameTakenError],
  ])('maps a failure of %s to its domain error', async (_label, codes, errorClass) => {
    ddbMock.on(TransactWriteCommand).rejects(cancelled(codes));
    const current = aProperty({ name: 'Old' });
    await expect(saveProperty(WS, current, { ...current, name: 'New', version: 2 })).rejects.toBeInstanceOf(errorClass);
  });
});

describe('getPropertiesByIds', () => {
  it('dedupes ids and sends one BatchGet per 100 keys', async () => {
    ddbMock.on(BatchGetCommand).resolves({ Responses: {} });
    const ids = Array.from({ length: 150 }, (_, i) => idOf(i));
    await getPropertiesByIds(WS, [...ids, ...ids.slice(0, 20)]);
    const calls = ddbMock.commandCalls(BatchGetCommand);
    expect(calls.map((call) => Object.values(call.args[0].input.RequestItems ?? {})[0]?.Keys?.length)).toEqual([100, 50]);
  });

  it('retries UnprocessedKeys until every property is read', async () => {
    const [first, second] = [aProperty({ id: idOf(1) }), aProperty({ id: idOf(2), name: 'Second' })];
    ddbMock.on(BatchGetCommand)
      .resolvesOnce({
        Responses: { 'boxoffice-unit': [toPropertyItem(WS, first)] },
        UnprocessedKeys: { 'boxoffice-unit': { Keys: [{ PK: `WS#${WS}#PROPERTY`, SK: idOf(2) }] } },
      })
      .resolvesOnce({ Responses: { 'boxoffice-unit': [toPropertyItem(WS, second)] } });
    const found = await getPropertiesByIds(WS, [idOf(1), idOf(2)]);
    expect([...found.keys()]).toEqual([idOf(1), idOf(2)]);
    expect(found.get(idOf(2))).toEqual(second);
    expect(ddbMock.commandCalls(BatchGetCommand)).toHaveLength(2);
  });

  it('sends nothing for an empty list', async () => {
    expect((await getPropertiesByIds(WS, [])).size).toBe(0);
    expect(ddbMock.commandCalls(BatchGetCommand)).toHaveLength(0);
  });
});
