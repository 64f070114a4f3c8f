import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { StaleVersionError } from '../../../shared/errors.js';
import { getFormNames } from '../../../shared/forms/form-summaries.js';
import { saveForm } from '../../../shared/forms/forms-repository.js';
import { changeForm } from '../../../shared/forms/forms-service.js';
import { fromFormItem, toFormItem } from '../../../shared/forms/form-model.js';
import { form, text } from './form-factories.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const WS = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const conditionFailed = () => new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] });
const written = (call = 0) => ddbMock.commandCalls(TransactWriteCommand)[call]?.args[0].input.TransactItems ?? [];

beforeEach(() => ddbMock.reset());

describe('forms repository', () => {
  it('writes the whole form conditionally on the version it read, with its status projection, in one transaction', async () => {
    // Prepare
    ddbMock.on(TransactWriteCommand).resolves({});
    const current = form([text()], { version: 3 });
    const next = { ...current, version: 4, name: 'Renamed' };
    // Act
    await saveForm(WS, current, next);
    // Assess
    const [formPut, projectionPut] = written();
    expect(formPut?.Put?.ConditionExpression).toBe('#version = :expectedVersion');
    expect(formPut?.Put?.ExpressionAttributeValues).toEqual({ ':expectedVersion': 3 });
    expect(formPut?.Put?.Item).toMatchObject({ PK: `WS#${WS}#FORM`, SK: next.id, entity: 'Form', version: 4, GSI1SK: `renamed\u0000${next.id}` });
    expect(projectionPut?.Put?.Item).toMatchObject({
      PK: `WS#${WS}#FORM_BY_STATUS#draft`, SK: next.id, entity: 'FormByStatus', formId: next.id,
      GSI1PK: `WS#${WS}#FORMS_BY_NAME#draft`, GSI1SK: `renamed\u0000${next.id}`, GSI2PK: `WS#${WS}#FORMS_BY_UPDATED#draft`,
    });
  });

  it('moves the status projection when the status changes', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const current = form([text()]);
    await saveForm(WS, current, { ...current, status: 'active', version: 2 });
    expect(written().map((item) => item.Delete?.Key ?? item.Put?.Item?.PK)).toEqual([
      `WS#${WS}#FORM`, { PK: `WS#${WS}#FORM_BY_STATUS#draft`, SK: current.id }, `WS#${WS}#FORM_BY_STATUS#active`,
    ]);
  });

  it('turns a failed version condition into a StaleVersionError and an oversized item into a 422', async () => {
    ddbMock.on(TransactWriteCommand).rejectsOnce(conditionFailed()).rejectsOnce(Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' }));
    const current = form([]);
    await expect(saveForm(WS, current, { ...current, version: 2 })).rejects.toBeInstanceOf(StaleVersionError);
    await expect(saveForm(WS, current, { ...current, version: 2 })).rejects.toMatchObject({ code: 'validation_failed', details: [{ path: 'elements' }] });
  });

  it('never stores propertyData', () => {
    const item = toFormItem(WS, form([text({ propertyData: { type: 'Text', objectType: 'contact', status: 'active' } })]));
    expect((item.elements as object[])[0]).not.toHaveProperty('propertyData');
  });

  it('reads a standalone form stored with a non-zero attendeeRowsStart (older versions kept it) as 0, and an order form as stored', () => {
    // Prepare
    const rows = [{ columns: [{ elementIndex: 0, widthFraction: 1 }] }];
    const standalone = toFormItem('ws1', { ...form([text()]), rows, attendeeRowsStart: 1 });
    const order = toFormItem('ws1', { ...form([text({ askAllAttendees: true })], { type: 'order', isEventForm: true }), rows, attendeeRowsStart: 0 });
    // Act, Assess
    expect(fromFormItem(standalone).attendeeRowsStart).toBe(0);
    expect(fromFormItem({ ...order, attendeeRowsStart: 1 }).attendeeRowsStart).toBe(1);
  });

  it('reads form names with one BatchGet per 100 ids', async () => {
    ddbMock.on(BatchGetCommand).resolves({ Responses: { 'boxoffice-unit': [{ id: 'f1', name: 'One' }] } });
    const ids = Array.from({ length: 150 }, (_v, i) => `f${i}`);
    const names = await getFormNames(WS, ids);
    expect(ddbMock.commandCalls(BatchGetCommand)).toHaveLength(2);
    expect(names.get('f1')).toBe('One');
  });
});

describe('changeForm', () => {
  it('retries on a fresh read when a concurrent write wins, without If-Match', async () => {
    // Prepare
    const stored = form([text()]);
    ddbMock.on(GetCommand).resolvesOnce({ Item: toFormItem(WS, stored) }).resolves({ Item: toFormItem(WS, { ...stored, version: 2 }) });
    ddbMock.on(TransactWriteCommand).rejectsOnce(conditionFailed()).resolves({});
    // Act
    const saved = await changeForm(WS, stored.id, undefined, (current) => ({ ...current, name: 'Renamed' }));
    // Assess
    expect(saved).toMatchObject({ name: 'Renamed', version: 3 });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('answers a lost race with If-Match as a conflict, without retrying', async () => {
    const stored = form([text()]);
    ddbMock.on(GetCommand).resolves({ Item: toFormItem(WS, stored) });
    ddbMock.on(TransactWriteCommand).rejects(conditionFailed());
    await expect(changeForm(WS, stored.id, 1, (current) => ({ ...current, name: 'Renamed' }))).rejects.toMatchObject({ code: 'conflict' });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('writes nothing for a change that changes nothing: the version read is answered', async () => {
    // Prepare
    const stored = form([text()], { version: 4 });
    ddbMock.on(GetCommand).resolves({ Item: toFormItem(WS, stored) });
    // Act
    const answered = await changeForm(WS, stored.id, 4, (current) => ({ ...current, name: stored.name }));
    // Assess
    expect(answered).toMatchObject({ version: 4, updatedAt: stored.updatedAt });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('rejects a stale If-Match before writing anything', async () => {
    const stored = form([text()], { version: 5 });
    ddbMock.on(GetCommand).resolves({ Item: toFormItem(WS, stored) });
    await expect(changeForm(WS, stored.id, 4, (current) => current)).rejects.toMatchObject({ code: 'conflict' });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('is a 404 for a form absent from the workspace', async () => {
    ddbMock.on(GetCommand).resolves({});
    await expect(changeForm(WS, 'bbbbbbbbbbbbbbbbbbbbbbbb', undefined, (current) => current)).rejects.toMatchObject({ code: 'not_found' });
  });
});
