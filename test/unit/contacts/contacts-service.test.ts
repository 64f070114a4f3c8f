import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { toContactItem, type Contact } from '../../../shared/contacts/contact-model.js';
import { ContactEmailTakenError } from '../../../shared/contacts/contacts-repository.js';
import { createContactInWorkspace, updateContact } from '../../../shared/contacts/contacts-service.js';
import { ValidationError } from '../../../shared/errors.js';
import { toPropertyItem } from '../../../shared/properties/property-model.js';
import { aProperty } from '../properties/property-factories.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const WS = 'dddddddddddddddddddddddd';
const AGE = 'aaaaaaaaaaaaaaaaaaaaaaa2';

beforeEach(() => ddbMock.reset());

function cancelled(...codes: string[]): TransactionCanceledException {
  return new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
}

function aContact(overrides: Partial<Contact> = {}): Contact {
  return {
    id: 'bbbbbbbbbbbbbbbbbbbbbbb1', email: 'ada@example.com', properties: {}, version: 1,
    createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...overrides,
  };
}

describe('createContactInWorkspace', () => {
  it('validates property values with one BatchGet and no write when one is invalid', async () => {
    // Prepare
    ddbMock.on(BatchGetCommand).resolves({ Responses: { 'boxoffice-unit': [toPropertyItem(WS, aProperty({ id: AGE, type: 'Number' }))] } });
    // Act
    const attempt = createContactInWorkspace(WS, { email: 'ada@example.com', properties: { [AGE]: 'old', 'cccccccccccccccccccccccc': 1 } });
    // Assess
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    expect(ddbMock.commandCalls(BatchGetCommand)).toHaveLength(1);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('reads no property definitions when no values are given', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await createContactInWorkspace(WS, { email: 'ada@example.com' });
    expect(ddbMock.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it('announces the new contact (contact.created, as GET returns it) in the transaction that creates it', async () => {
    // Prepare
    ddbMock.on(TransactWriteCommand).resolves({});
    // Act
    const contact = await createContactInWorkspace(WS, { email: 'Ada@Example.com', firstName: 'Ada' });
    // Assess
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items.map((item) => item.Put?.Item?.entity)).toEqual(['Contact', 'ContactEmailGuard', 'WebhookEvent']);
    const event = items[2]?.Put?.Item as Record<string, unknown>;
    expect(event).toMatchObject({ PK: `WS#${WS}#WEBHOOK_EVENT`, type: 'contact.created', workspaceId: WS, timestamp: contact.createdAt });
    expect(JSON.parse(event.body as string)).toEqual({ id: event.id, type: 'contact.created', timestamp: contact.createdAt, data: { object: contact } });
  });

  it('announces nothing when a contact update commits', async () => {
    // Prepare
    ddbMock.on(GetCommand).resolves({ Item: toContactItem(WS, aContact()) });
    ddbMock.on(TransactWriteCommand).resolves({});
    // Act
    await updateContact(WS, aContact().id, { firstName: 'Ada' });
    // Assess
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items.map((item) => item.Put?.Item?.entity)).toEqual(['Contact']);
  });

  it('maps a failed email guard to ContactEmailTakenError', async () => {
    ddbMock.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed'));
    await expect(createContactInWorkspace(WS, { email: 'ada@example.com' })).rejects.toBeInstanceOf(ContactEmailTakenError);
  });
});

describe('updateContact', () => {
  it('moves the email guard in the same transaction as the contact', async () => {
    ddbMock.on(GetCommand).resolves({ Item: toContactItem(WS, aContact()) });
    ddbMock.on(TransactWriteCommand).resolves({});
    await updateContact(WS, aContact().id, { email: 'ada.lovelace@example.com' });
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items[1]?.Delete?.Key).toEqual({ PK: `WS#${WS}#CONTACTEMAIL`, SK: 'ada@example.com' });
    expect(items[2]?.Put?.Item).toMatchObject({ SK: 'ada.lovelace@example.com', contactId: aContact().id });
  });

  it('retries after TransactionConflict', async () => {
    ddbMock.on(GetCommand).resolves({ Item: toContactItem(WS, aContact()) });
    ddbMock.on(TransactWriteCommand).rejectsOnce(cancelled('TransactionConflict')).resolves({});
    const updated = await updateContact(WS, aContact().id, { firstName: 'Ada' });
    expect(updated).toMatchObject({ firstName: 'Ada', version: 2 });
  });
});
