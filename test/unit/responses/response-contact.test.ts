import { describe, expect, it } from 'vitest';
import type { FormElement } from '../../../shared/forms/form-element-model.js';
import { visibleElementIds } from '../../../shared/forms/logic-evaluator.js';
import { contactChangesOf } from '../../../shared/responses/response-contact.js';
import { element, email, form, property, propertyMap, text, yesNo } from '../forms/form-factories.js';

const idOf = (e: FormElement) => e.id as string;

function changesFor(elements: FormElement[], answers: Record<string, unknown>, properties = propertyMap(), type: 'standalone' | 'order' = 'standalone') {
  const f = form(elements, { type });
  return contactChangesOf(f, answers, visibleElementIds(f, { answers }), properties);
}

describe('contactChangesOf', () => {
  it('identifies no contact when the email question is unanswered', () => {
    const mail = email({ required: false });
    const first = text({ contactField: 'firstName' });
    expect(changesFor([mail, first], { [idOf(first)]: 'Ada' })).toBeUndefined();
  });

  it('maps contact fields, Yes to opted-in and No to unsubscribed (spec rule 6)', () => {
    // Prepare
    const mail = email();
    const first = text({ contactField: 'firstName' });
    const last = text({ contactField: 'lastName' });
    const phone = element({ type: 'Phone', contactField: 'phone' });
    const status = yesNo({ contactField: 'status' });
    const elements = [mail, first, last, phone, status];
    const answers = { [idOf(mail)]: ' ada@example.com ', [idOf(first)]: 'Ada', [idOf(last)]: 'Lovelace', [idOf(phone)]: '+1 555' };
    // Act
    const yes = changesFor(elements, { ...answers, [idOf(status)]: true });
    const no = changesFor(elements, { ...answers, [idOf(status)]: false });
    const none = changesFor(elements, answers);
    // Assess
    expect(yes).toEqual({ email: 'ada@example.com', fields: { firstName: 'Ada', lastName: 'Lovelace', phone: '+1 555', status: 'opted-in' }, properties: {} });
    expect(no?.fields.status).toBe('unsubscribed');
    expect(none?.fields).not.toHaveProperty('status');
  });

  it('sets contact properties with valid values only, never order or ticket properties', () => {
    // Prepare
    const tier = property({ type: 'Select One', options: [{ value: 'gold', label: 'Gold' }] });
    const orderNote = property({ objectType: 'order' });
    const mail = email();
    const tierQuestion = element({ type: 'Select One or "Other"', propertyId: tier.id, otherPrompt: 'Other' });
    const noteQuestion = text({ propertyId: orderNote.id });
    const elements = [mail, tierQuestion, noteQuestion];
    const properties = propertyMap(tier, orderNote);
    // Act
    const option = changesFor(elements, { [idOf(mail)]: 'a@example.com', [idOf(tierQuestion)]: 'gold', [idOf(noteQuestion)]: 'x' }, properties, 'order');
    const other = changesFor(elements, { [idOf(mail)]: 'a@example.com', [idOf(tierQuestion)]: 'platinum' }, properties, 'order');
    // Assess
    expect(option?.properties).toEqual({ [tier.id]: 'gold' });
    expect(other?.properties).toEqual({});
  });

  it('ignores answers of attendee questions and of hidden questions', () => {
    // Prepare
    const mail = email();
    const attendeeName = text({ contactField: 'firstName', askAllAttendees: true });
    const gate = yesNo({ logicGroups: [{ revealedElementIndex: 3, selectionType: 'is', value: true }] });
    const hiddenName = text({ contactField: 'lastName' });
    // Act
    const changes = changesFor([mail, attendeeName, gate, hiddenName], { [idOf(mail)]: 'a@example.com', [idOf(attendeeName)]: 'Bob', [idOf(hiddenName)]: 'Stale' }, propertyMap(), 'order');
    // Assess
    expect(changes?.fields).toEqual({});
  });
});
