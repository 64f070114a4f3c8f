import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { toCheckoutItem, type CheckoutRecord } from '../../../shared/checkouts/checkout-model.js';
import { nameChecksOf } from '../../../shared/checkouts/checkout-name-checks.js';
import { insertCheckout, replaceCheckout, softDeleteCheckout } from '../../../shared/checkouts/checkouts-repository.js';
import { deleteCheckout, getCheckout, updateCheckout } from '../../../shared/checkouts/checkouts-service.js';
import { ConflictError } from '../../../shared/errors.js';
import { checkoutRecord } from './factories.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const WS = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const EVENT = 'e'.repeat(24);
const context = { baseUrl: 'https://api.test' };
/** Cancellation of a transaction whose item `index` failed its condition. */
const failedAt = (index: number, size = 60) => new TransactionCanceledException({
  message: 'cancelled', $metadata: {}, CancellationReasons: Array.from({ length: size }, (_, at) => ({ Code: at === index ? 'ConditionalCheckFailed' : 'None' })),
});
const transactItems = (call = 0) => ddbMock.commandCalls(TransactWriteCommand)[call]?.args[0].input.TransactItems ?? [];
const stored = (record: CheckoutRecord, names = {}) => ({ record, listNames: names, version: record.version });

beforeEach(() => {
  ddbMock.reset();
  ddbMock.on(BatchGetCommand).resolves({ Responses: {} });
});

describe('checkouts repository', () => {
  it('creates the checkout and its 20 list projections (10 sorts x ALL and cell) in one transaction', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const record = checkoutRecord();
    await insertCheckout(WS, record, {});
    const items = transactItems();
    expect(items[0]?.Put).toMatchObject({ Item: { PK: `WS#${WS}#CHECKOUTS`, SK: record.id, entity: 'Checkout', listNames: {} }, ConditionExpression: 'attribute_not_exists(#pk)' });
    expect(items.slice(1)).toHaveLength(20);
    expect(items.slice(1).every((item) => item.Put?.Item?.entity === 'CheckoutListEntry')).toBe(true);
  });

  it('checks, in the same transaction, that the event still has the name its projections are keyed with', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const record = checkoutRecord({ eventId: EVENT });
    await insertCheckout(WS, record, { event: 'Gala' }, nameChecksOf(WS, record, { event: 'Gala' }));
    const check = transactItems().find((item) => item.ConditionCheck)?.ConditionCheck;
    expect(check).toMatchObject({ Key: { PK: `WS#${WS}#EVENTS`, SK: EVENT }, ConditionExpression: '#name = :name', ExpressionAttributeValues: { ':name': 'Gala' } });
  });

  it('replaces conditionally on the version read, removing only the projections whose key moved', async () => {
    // Prepare
    ddbMock.on(TransactWriteCommand).resolves({});
    const before = checkoutRecord({ name: 'Before', version: 2 });
    const after = { ...before, name: 'After', version: 3 };
    // Act
    await replaceCheckout(WS, stored(before), after, {});
    // Assess: the name sort moves in the ALL and cell scopes; every projection is put again
    const items = transactItems();
    expect(items[0]?.Put).toMatchObject({ ConditionExpression: '#version = :expectedVersion', ExpressionAttributeValues: { ':expectedVersion': 2 } });
    const deleted = items.filter((item) => item.Delete).map((item) => item.Delete?.Key?.PK);
    expect(deleted).toEqual([`WS#${WS}#CHECKOUTS#LIST#name#V#ALL`, `WS#${WS}#CHECKOUTS#LIST#name#V#CELL#open#private#X`]);
    expect(items.filter((item) => item.Put)).toHaveLength(21);
  });

  it('moves every projection of the old cell when the status changes', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const before = checkoutRecord({ version: 1 });
    await replaceCheckout(WS, stored(before), { ...before, status: 'closed', version: 2 }, {});
    const deleted = transactItems().filter((item) => item.Delete).map((item) => String(item.Delete?.Key?.PK));
    // The cell moves (10 sorts), and so does the ALL scope's status sort.
    expect(deleted.filter((pk) => pk.endsWith('#CELL#open#private#X'))).toHaveLength(10);
    expect(deleted.filter((pk) => pk.endsWith('#ALL'))).toEqual([`WS#${WS}#CHECKOUTS#LIST#status#V#ALL`]);
  });

  it('soft-deletes in one transaction: the live item at its version, its projections, and a kept record', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const record = checkoutRecord({ version: 2 });
    await softDeleteCheckout(WS, stored(record), '2030-01-01T00:00:00.000Z');
    const items = transactItems();
    expect(items[0]?.Delete).toMatchObject({ Key: { PK: `WS#${WS}#CHECKOUTS`, SK: record.id }, ExpressionAttributeValues: { ':expectedVersion': 2 } });
    expect(items[1]?.Put?.Item).toMatchObject({ PK: `WS#${WS}#CHECKOUTS#DELETED`, SK: record.id, entity: 'DeletedCheckout', deletedAt: '2030-01-01T00:00:00.000Z' });
    expect(items.slice(2).every((item) => item.Delete)).toBe(true);
    expect(items.slice(2)).toHaveLength(20);
  });

  it('turns an item above the DynamoDB size limit into a 422', async () => {
    ddbMock.on(TransactWriteCommand).rejects(Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' }));
    await expect(insertCheckout(WS, checkoutRecord(), {})).rejects.toMatchObject({ code: 'validation_failed', details: [{ path: 'products' }] });
  });
});

describe('checkouts service concurrency', () => {
  it('re-applies a PATCH without If-Match on a fresh read when a concurrent write wins', async () => {
    // Prepare
    const current = checkoutRecord({ description: 'kept' });
    ddbMock.on(GetCommand).resolvesOnce({ Item: toCheckoutItem(WS, current, {}) }).resolves({ Item: toCheckoutItem(WS, { ...current, version: 2, timeslotId: 'concurrent' }, {}) });
    ddbMock.on(TransactWriteCommand).rejectsOnce(failedAt(0)).resolves({});
    // Act
    const saved = await updateCheckout(WS, current.id, { name: 'Renamed' }, context);
    // Assess
    expect(saved).toMatchObject({ name: 'Renamed', description: 'kept', timeslotId: 'concurrent', version: 3 });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('reads the event name again and rewrites when a rename raced with the write', async () => {
    // Prepare: the first write checked the old name; the event was renamed before it committed
    const current = checkoutRecord({ eventId: EVENT });
    ddbMock.on(GetCommand).resolves({ Item: toCheckoutItem(WS, current, { event: 'Old' }) });
    ddbMock.on(BatchGetCommand)
      .resolvesOnce({ Responses: { 'boxoffice-unit': [{ id: EVENT, name: 'Old', products: [] }] } })
      .resolves({ Responses: { 'boxoffice-unit': [{ id: EVENT, name: 'New', products: [] }] } });
    ddbMock.on(TransactWriteCommand).callsFakeOnce((input: { TransactItems: unknown[] }) => {
      throw failedAt(input.TransactItems.length - 1, input.TransactItems.length);
    }).resolves({});
    // Act
    await updateCheckout(WS, current.id, { name: 'Renamed' }, context);
    // Assess
    const check = transactItems(1).find((item) => item.ConditionCheck)?.ConditionCheck;
    expect(check?.ExpressionAttributeValues).toEqual({ ':name': 'New' });
    expect(transactItems(1)[0]?.Put?.Item?.listNames).toEqual({ event: 'New' });
  });

  it('answers 409 at once with a stale If-Match, without writing', async () => {
    const current = checkoutRecord({ version: 4 });
    ddbMock.on(GetCommand).resolves({ Item: toCheckoutItem(WS, current, {}) });
    await expect(updateCheckout(WS, current.id, { name: 'x' }, { ...context, ifMatch: 3 })).rejects.toBeInstanceOf(ConflictError);
    await expect(deleteCheckout(WS, current.id, 3)).rejects.toBeInstanceOf(ConflictError);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('reads a GET eventually consistent (half the cost), and a write strongly', async () => {
    const current = checkoutRecord();
    ddbMock.on(GetCommand).resolves({ Item: toCheckoutItem(WS, current, {}) });
    ddbMock.on(TransactWriteCommand).resolves({});
    await getCheckout(WS, current.id, context);
    await updateCheckout(WS, current.id, { name: 'x' }, context);
    expect(ddbMock.commandCalls(GetCommand).map((call) => call.args[0].input.ConsistentRead)).toEqual([false, true]);
  });

  it('is a 404 when the checkout to change is gone', async () => {
    ddbMock.on(GetCommand).resolves({});
    await expect(updateCheckout(WS, 'b'.repeat(24), { name: 'x' }, context)).rejects.toMatchObject({ code: 'not_found' });
  });
});
