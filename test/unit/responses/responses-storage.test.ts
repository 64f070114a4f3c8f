import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { contactKeys, toContactItem, type Contact } from '../../../shared/contacts/contact-model.js';
import { NotFoundError } from '../../../shared/errors.js';
import { formKeys, toFormItem, toFormPointerItem, type Form } from '../../../shared/forms/form-model.js';
import { createForm } from '../../../shared/forms/forms-repository.js';
import { submitResponse } from '../../../shared/responses/responses-service.js';
import { email, form, text } from '../forms/form-factories.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const WS = 'aaaaaaaaaaaaaaaaaaaaaaaa';

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

function aContact(overrides: Partial<Contact> = {}): Contact {
  return { id: 'cccccccccccccccccccccccc', email: 'ada@example.com', properties: {}, version: 3, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...overrides };
}

/** An active signup form stored in WS, reachable through its pointer. */
function storedSignupForm(): { f: Form; mailId: string; nameId: string } {
  const mail = email();
  const name = text({ contactField: 'firstName' });
  const f = form([mail, name], { status: 'active' });
  ddbMock.on(GetCommand, { Key: formKeys.pointer(f.id) }).resolves({ Item: toFormPointerItem(WS, f.id) });
  ddbMock.on(GetCommand, { Key: formKeys.form(WS, f.id) }).resolves({ Item: toFormItem(WS, f) });
  return { f, mailId: mail.id as string, nameId: name.id as string };
}

const transactItems = (call: number) => ddbMock.commandCalls(TransactWriteCommand)[call]?.args[0].input.TransactItems ?? [];

beforeEach(() => {
  ddbMock.reset();
  ddbMock.on(GetCommand).resolves({});
});

describe('createForm', () => {
  it('writes the form, its public pointer and its status projection in one transaction', async () => {
    // Prepare
    const f = form([text()]);
    ddbMock.on(TransactWriteCommand).resolves({});
    // Act
    await createForm(WS, f);
    // Assess
    const items = transactItems(0).map((item) => item.Put?.Item);
    expect(items).toHaveLength(3);
    expect(items[1]).toMatchObject({ PK: `FORM#${f.id}`, SK: 'POINTER', entity: 'FormPointer', workspaceId: WS });
    expect(items[2]).toMatchObject({ PK: `WS#${WS}#FORM_BY_STATUS#draft`, SK: f.id, entity: 'FormByStatus' });
  });
});

describe('submitResponse', () => {
  it('stores the response, the new contact, its email guard and both their webhook events in one transaction', async () => {
    // Prepare
    const { f, mailId, nameId } = storedSignupForm();
    ddbMock.on(TransactWriteCommand).resolves({});
    // Act
    const result = await submitResponse(f.id, { answers: { [mailId]: 'Ada@Example.com', [nameId]: 'Ada' } });
    // Assess
    const items = transactItems(0).map((item) => item.Put?.Item);
    const ofEntity = (entity: string) => items.filter((item) => item?.entity === entity);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(items[0]).toMatchObject({ PK: `WS#${WS}#FORMRESPONSE#${f.id}`, SK: result.id, entity: 'FormResponse', contactId: result.contactId });
    expect(items[1]).toMatchObject({ ...contactKeys.contact(WS, result.contactId as string), email: 'Ada@Example.com', firstName: 'Ada' });
    expect(items[2]).toMatchObject({ ...contactKeys.emailGuard(WS, 'ada@example.com'), contactId: result.contactId });
    const byContact = `WS#${WS}#FORMRESPONSE#${f.id}#CONTACT#${result.contactId}`;
    expect(ofEntity('FormResponseByContact')).toEqual([{
      PK: byContact, SK: result.id, GSI3PK: byContact, GSI3SK: expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z#${result.id}$`)),
      entity: 'FormResponseByContact', responseId: result.id,
    }]);
    const events = ofEntity('WebhookEvent').map((item) => ({ type: item?.type, object: JSON.parse(item?.body as string).data.object }));
    expect(events).toEqual([
      { type: 'contact.created', object: expect.objectContaining({ id: result.contactId, email: 'Ada@Example.com', firstName: 'Ada', version: 1 }) },
      { type: 'form_response.created', object: { id: result.id, formId: f.id, contactId: result.contactId, answers: { [mailId]: 'Ada@Example.com', [nameId]: 'Ada' }, createdAt: expect.any(String) } },
    ]);
  });

  it('retries on a fresh read when a concurrent submission created the contact first', async () => {
    // Prepare
    const { f, mailId, nameId } = storedSignupForm();
    const winner = aContact();
    ddbMock.on(TransactWriteCommand).rejectsOnce(cancelled('None', 'None', 'ConditionalCheckFailed')).resolves({});
    ddbMock.on(GetCommand, { Key: contactKeys.emailGuard(WS, winner.email) })
      .resolvesOnce({})
      .resolves({ Item: { ...contactKeys.emailGuard(WS, winner.email), contactId: winner.id } });
    ddbMock.on(GetCommand, { Key: contactKeys.contact(WS, winner.id) }).resolves({ Item: toContactItem(WS, winner) });
    // Act
    const result = await submitResponse(f.id, { answers: { [mailId]: 'ada@example.com', [nameId]: 'Ada' } });
    // Assess
    expect(result.contactId).toBe(winner.id);
    const retried = transactItems(1);
    expect(retried.map((item) => item.Put?.Item?.entity)).toEqual(['FormResponse', 'Contact', 'FormResponseByContact', 'WebhookEvent']);
    expect(retried[3]?.Put?.Item).toMatchObject({ type: 'form_response.created' });
    expect(retried[1]?.Put).toMatchObject({ Item: { id: winner.id, firstName: 'Ada', version: 4 }, ExpressionAttributeValues: { ':expectedVersion': 3 } });
  });

  it('writes only the response, its contact projection and its event when the contact already holds every answer', async () => {
    // Prepare
    const { f, mailId, nameId } = storedSignupForm();
    const existing = aContact({ firstName: 'Ada' });
    ddbMock.on(GetCommand, { Key: contactKeys.emailGuard(WS, existing.email) }).resolves({ Item: { contactId: existing.id } });
    ddbMock.on(GetCommand, { Key: contactKeys.contact(WS, existing.id) }).resolves({ Item: toContactItem(WS, existing) });
    ddbMock.on(TransactWriteCommand).resolves({});
    // Act
    const result = await submitResponse(f.id, { answers: { [mailId]: 'ada@example.com', [nameId]: 'Ada' } });
    // Assess
    expect(result.contactId).toBe(existing.id);
    expect(transactItems(0).map((item) => item.Put?.Item?.entity)).toEqual(['FormResponse', 'FormResponseByContact', 'WebhookEvent']);
    expect(transactItems(0)[2]?.Put?.Item).toMatchObject({ type: 'form_response.created' });
  });

  it('is a NotFoundError for a form without pointer and for a form that is not active, writing nothing', async () => {
    // Prepare
    const draft = form([text()]);
    ddbMock.on(GetCommand, { Key: formKeys.pointer(draft.id) }).resolves({ Item: toFormPointerItem(WS, draft.id) });
    ddbMock.on(GetCommand, { Key: formKeys.form(WS, draft.id) }).resolves({ Item: toFormItem(WS, draft) });
    // Act
    const unknown = submitResponse('bbbbbbbbbbbbbbbbbbbbbbbb', { answers: {} });
    const notActive = submitResponse(draft.id, { answers: {} });
    // Assess
    await expect(unknown).rejects.toBeInstanceOf(NotFoundError);
    await expect(notActive).rejects.toBeInstanceOf(NotFoundError);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
