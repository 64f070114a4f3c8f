import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { FormVersionConflictError, getFormNames, saveForm } from '../../../shared/forms/forms-repository.js';
import { changeForm } from '../../../shared/forms/forms-service.js';
import { toFormItem } from '../../../shared/forms/form-entity.js';
import { form, text } from './form-factories.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const WS = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'failed', $metadata: {} });

beforeEach(() => ddbMock.reset());

describe('forms repository', () => {
  it('writes the whole form conditionally on the version it read', async () => {
    // Prepare
    ddbMock.on(PutCommand).resolves({});
    const next = form([text()], { version: 4 });
    // Act
    await saveForm(WS, next, 3);
    // Assess
    const input = ddbMock.commandCalls(PutCommand)[0]?.args[0].input;
    expect(input?.ConditionExpression).toBe('#version = :read');
    expect(input?.ExpressionAttributeValues).toEqual({ ':read': 3 });
    expect(input?.Item).toMatchObject({ PK: `WS#${WS}#FORM`, SK: next.id, entity: 'Form', version: 4 });
  });

  it('turns a failed condition into a FormVersionConflictError and an oversized item into a 422', async () => {
    ddbMock.on(PutCommand).rejectsOnce(conditionFailed()).rejectsOnce(Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' }));
    await expect(saveForm(WS, form([]), 1)).rejects.toBeInstanceOf(FormVersionConflictError);
    await expect(saveForm(WS, form([]), 1)).rejects.toMatchObject({ code: 'validation_failed', details: [{ path: 'elements' }] });
  });

  it('never stores propertyData', () => {
    const item = toFormItem(WS, form([text({ propertyData: { type: 'Text', objectType: 'contact', status: 'active' } })]));
    expect((item.elements as object[])[0]).not.toHaveProperty('propertyData');
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
    ddbMock.on(PutCommand).rejectsOnce(conditionFailed()).resolves({});
    // Act
    const saved = await changeForm(WS, stored.id, undefined, (current) => ({ ...current, name: 'Renamed' }));
    // Assess
    expect(saved).toMatchObject({ name: 'Renamed', version: 3 });
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(2);
  });

  it('answers a lost race with If-Match as a conflict, without retrying', async () => {
    const stored = form([text()]);
    ddbMock.on(GetCommand).resolves({ Item: toFormItem(WS, stored) });
    ddbMock.on(PutCommand).rejects(conditionFailed());
    await expect(changeForm(WS, stored.id, 1, (current) => current)).rejects.toMatchObject({ code: 'conflict' });
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(1);
  });

  it('rejects a stale If-Match before writing anything', async () => {
    const stored = form([text()], { version: 5 });
    ddbMock.on(GetCommand).resolves({ Item: toFormItem(WS, stored) });
    await expect(changeForm(WS, stored.id, 4, (current) => current)).rejects.toMatchObject({ code: 'conflict' });
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('is a 404 for a form absent from the workspace', async () => {
    ddbMock.on(GetCommand).resolves({});
    await expect(changeForm(WS, 'bbbbbbbbbbbbbbbbbbbbbbbb', undefined, (current) => current)).rejects.toMatchObject({ code: 'not_found' });
  });
});
