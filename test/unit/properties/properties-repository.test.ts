import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { StaleVersionError } from '../../../shared/errors.js';
import { toPropertyItem } from '../../../shared/properties/property-model.js';
import { PropertyNameTakenError, createProperty, getPropertiesByIds, saveProperty } from '../../../shared/properties/properties-repository.js';
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

const written = () => ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
const putPartitions = () => written().flatMap((item) => (item.Put ? [item.Put.Item?.PK] : []));

describe('createProperty', () => {
  it('writes the property, its name guard and its three filter projections in one transaction', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const property = aProperty({ name: 'Diet', objectType: 'order' });
    await createProperty(WS, property);
    expect(written()[0]?.Put?.Item).toMatchObject({
      PK: `WS#${WS}#PROPERTY`, SK: property.id, entity: 'Property',
      GSI1PK: `WS#${WS}#PROPERTIES_BY_NAME`, GSI1SK: 'diet\u0000order',
      GSI2PK: `WS#${WS}#PROPERTIES_BY_UPDATED`, GSI2SK: `${property.updatedAt}#${property.id}`,
    });
    expect(written()[1]?.Put?.Item).toMatchObject({ PK: `WS#${WS}#PROPNAME`, SK: 'order#diet', entity: 'PropertyNameGuard' });
    expect(putPartitions().slice(2)).toEqual([
      `WS#${WS}#PROPERTY_BY#OBJECT#order`, `WS#${WS}#PROPERTY_BY#STATUS#active`, `WS#${WS}#PROPERTY_BY#OBJECT#order#STATUS#active`,
    ]);
    expect(written()[4]?.Put?.Item).toMatchObject({
      SK: property.id, propertyId: property.id, entity: 'PropertyByFilter',
      GSI1PK: `WS#${WS}#PROPERTIES_BY_NAME#OBJECT#order#STATUS#active`, GSI2PK: `WS#${WS}#PROPERTIES_BY_UPDATED#OBJECT#order#STATUS#active`,
    });
  });

  it('turns a failed guard condition into PropertyNameTakenError (409)', async () => {
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed', 'None', 'None', 'None']));
    await expect(createProperty(WS, aProperty())).rejects.toBeInstanceOf(PropertyNameTakenError);
  });
});

describe('saveProperty', () => {
  it('releases the old guard and claims the new one in the same transaction on rename', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const current = aProperty({ name: 'Old' });
    await saveProperty(WS, current, { ...current, name: 'New', version: 2 });
    expect(written().map((item) => Object.keys(item)[0])).toEqual(['Put', 'Delete', 'Put', 'Put', 'Put', 'Put']);
    expect(written()[1]?.Delete?.Key).toEqual({ PK: `WS#${WS}#PROPNAME`, SK: 'contact#old' });
    expect(written()[2]?.Put?.Item).toMatchObject({ SK: 'contact#new' });
  });

  it('touches no guard when only the case of the name changes, but moves every order', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const current = aProperty({ name: 'Old' });
    await saveProperty(WS, current, { ...current, name: 'OLD', version: 2, updatedAt: '2026-02-01T00:00:00.000Z' });
    expect(putPartitions()).toEqual([
      `WS#${WS}#PROPERTY`, `WS#${WS}#PROPERTY_BY#OBJECT#contact`, `WS#${WS}#PROPERTY_BY#STATUS#active`, `WS#${WS}#PROPERTY_BY#OBJECT#contact#STATUS#active`,
    ]);
    expect(written().every((item) => item.Put?.Item?.GSI2SK === `2026-02-01T00:00:00.000Z#${current.id}`)).toBe(true);
  });

  it('moves the status projections on archive: the old ones deleted, the new ones put', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const current = aProperty({ name: 'Old' });
    await saveProperty(WS, current, { ...current, status: 'archived', version: 2 });
    const deleted = written().flatMap((item) => (item.Delete ? [item.Delete.Key?.PK] : []));
    expect(deleted).toEqual([`WS#${WS}#PROPERTY_BY#STATUS#active`, `WS#${WS}#PROPERTY_BY#OBJECT#contact#STATUS#active`]);
    expect(putPartitions()).toContain(`WS#${WS}#PROPERTY_BY#OBJECT#contact#STATUS#archived`);
  });

  it.each([
    ['the version condition', ['ConditionalCheckFailed', 'None', 'None', 'None', 'None', 'None'], StaleVersionError],
    ['the new guard', ['None', 'None', 'ConditionalCheckFailed', 'None', 'None', 'None'], PropertyNameTakenError],
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
