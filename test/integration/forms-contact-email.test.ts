import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../../shared/forms/form-model.js';
import { createForm as storeForm } from '../../shared/forms/forms-repository.js';
import { newId } from '../../shared/ids.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { formsFixtures, text, yesNo } from './support/forms-fixtures.js';

/**
 * Rule 5 (spec "Rules on property and field linkage"): the required contact Email question must also
 * always be shown. A hidden question is neither required nor accepted, so an Email question revealed
 * by logic or limited by `forEventItems` let a submission through with its contact data dropped.
 */

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Contact email');
});
afterAll(async () => api.close());

const { createForm, addElement, getForm } = formsFixtures(() => ({ api, key: workspace.apiKey }), 'Signup');

const contactEmail = (fields: Record<string, unknown> = {}) => ({ type: 'Email', prompt: 'Email', contactField: 'email', required: true, ...fields });
const firstName = () => ({ type: 'Text', prompt: 'First name', contactField: 'firstName' });
const ticket = { type: 'eventItem', eventId: 'e1', itemId: 'i1' };
const revealOnYes = (revealedElementId: string) => ({ revealedElementId, condition: { selectionType: 'is', value: true } });

const post = (path: string, body: unknown) => api.request('POST', `/v1${path}`, { key: workspace.apiKey, body });
const patch = (path: string, body: unknown) => api.request('PATCH', `/v1${path}`, { key: workspace.apiKey, body });
const paths = (response: { body: { error: { details: { path: string }[] } } }) => response.body.error.details.map((detail) => detail.path);

async function createProperty(body: Record<string, unknown>) {
  const response = await post('/properties', body);
  if (response.status !== 201) throw new Error(`createProperty: ${response.status} ${response.text}`);
  return response.body.data;
}

/** A form of two elements, one per row, stored straight in the table as a form saved before a rule existed. */
async function storeLegacyForm(type: 'order' | 'standalone', elements: Record<string, unknown>[]): Promise<Form> {
  const now = new Date();
  const legacy = {
    id: newId(now), name: 'Legacy', ownerId: workspace.workspaceId, status: 'active', type, isEventForm: type === 'order',
    elements: elements.map((element) => ({ id: newId(now), ...element })),
    rows: [{ columns: [{ elementIndex: 0, widthFraction: 1 }] }, { columns: [{ elementIndex: 1, widthFraction: 1 }] }],
    attendeeRowsStart: type === 'order' ? 1 : 0, submitButtonText: 'Submit', submitButtonWidth: 'auto', version: 1, createdAt: now.toISOString(), updatedAt: now.toISOString(),
  } as Form;
  await storeForm(workspace.workspaceId, legacy);
  return legacy;
}

describe('hiding the contact Email question by logic', () => {
  it('refuses a logic rule that reveals it, so a submission without email cannot drop the contact data', async () => {
    // Prepare
    const form = await createForm({ status: 'active' });
    const email = await addElement(form.id, contactEmail());
    const name = await addElement(form.id, firstName());
    const question = await addElement(form.id, yesNo());
    // Act
    const rule = await post(`/forms/${form.id}/elements/${question.id}/logic-rules`, revealOnYes(email.id));
    const submission = await api.request('POST', `/forms/${form.id}/responses`, { body: { answers: { [name.id]: 'Ghost' } } });
    // Assess
    expect(rule.status).toBe(422);
    expect(rule.body.error.code).toBe('validation_failed');
    expect(rule.body.error.details[0]).toMatchObject({ path: 'revealedElementId', message: expect.stringContaining('Email') });
    expect((await getForm(form.id)).elements[2]).not.toHaveProperty('logicGroups');
    expect(submission.status).toBe(422);
  });

  it('refuses a contact field or contact property once the Email question is revealed by logic', async () => {
    // Prepare: no contact data yet, so hiding the Email question is allowed
    const property = await createProperty({ type: 'Text', name: 'Company (contact email test)', objectType: 'contact' });
    const form = await createForm();
    const email = await addElement(form.id, contactEmail());
    const question = await addElement(form.id, yesNo());
    const plain = await addElement(form.id, text('Nickname'));
    const rule = await post(`/forms/${form.id}/elements/${question.id}/logic-rules`, revealOnYes(email.id));
    // Act
    const added = await post(`/forms/${form.id}/elements`, firstName());
    const linked = await post(`/forms/${form.id}/elements`, { type: 'Text', prompt: 'Company', propertyId: property.id });
    const opted = await patch(`/forms/${form.id}/elements/${question.id}`, { contactField: 'status' });
    const patched = await patch(`/forms/${form.id}/elements/${plain.id}`, { contactField: 'lastName' });
    // Assess
    expect(rule.status).toBe(201);
    // The question's own logic is named by its path in that question (the body of an element route).
    for (const [refused, path] of [[added, 'elements[1]'], [linked, 'elements[1]'], [opted, ''], [patched, 'elements[1]']] as const) {
      expect(refused.status).toBe(422);
      expect(paths(refused)).toContain(`${path}${path ? '.' : ''}logicGroups[0].revealedElementIndex`);
    }
  });

  it('lets exactly one of two racing changes through: hiding the Email question, or adding a contact field', async () => {
    // Prepare
    const form = await createForm();
    const email = await addElement(form.id, contactEmail());
    const question = await addElement(form.id, yesNo());
    // Act
    const [rule, added] = await Promise.all([
      post(`/forms/${form.id}/elements/${question.id}/logic-rules`, revealOnYes(email.id)),
      post(`/forms/${form.id}/elements`, firstName()),
    ]);
    // Assess
    expect([rule.status, added.status].sort()).toEqual([201, 422]);
    const stored = await getForm(form.id);
    const hidden = stored.elements[1].logicGroups !== undefined;
    const hasContactField = stored.elements.some((element: { type: string; contactField?: string }) => element.type !== 'Email' && element.contactField !== undefined);
    expect(hidden && hasContactField).toBe(false);
  });

  it('refuses creating a form from a copy whose Email question is revealed by logic', async () => {
    // Act
    const response = await post('/forms', {
      name: 'Copy', type: 'standalone',
      elements: [contactEmail(), firstName(), { ...yesNo(), logicGroups: [{ revealedElementIndex: 0, selectionType: 'is', value: true }] }],
    });
    // Assess
    expect(response.status).toBe(422);
    expect(paths(response)).toContain('elements[2].logicGroups[0].revealedElementIndex');
  });
});

describe('limiting the contact Email question to cart items (order forms)', () => {
  it.each([
    ['an empty list', []],
    ['a ticket', [ticket]],
  ])('refuses forEventItems as %s on the Email question of a form that sets contact data', async (_name, forEventItems) => {
    // Prepare
    const form = await createForm({ type: 'order', status: 'active' });
    const email = await addElement(form.id, contactEmail());
    await addElement(form.id, firstName());
    // Act
    const updated = await patch(`/forms/${form.id}/elements/${email.id}`, { forEventItems });
    // Assess
    expect(updated.status).toBe(422);
    expect(updated.body.error.code).toBe('validation_failed');
    expect(updated.body.error.details[0]).toMatchObject({ path: 'forEventItems', message: expect.stringContaining('forEventItems') });
    expect((await getForm(form.id)).elements[0]).not.toHaveProperty('forEventItems');
  });

  it('refuses a contact field once the Email question is limited to cart items, and accepts it after the limit is cleared', async () => {
    // Prepare: no contact data yet, so limiting the Email question is allowed
    const form = await createForm({ type: 'order' });
    const email = await addElement(form.id, contactEmail({ forEventItems: [] }));
    // Act
    const refused = await post(`/forms/${form.id}/elements`, firstName());
    const cleared = await patch(`/forms/${form.id}/elements/${email.id}`, { forEventItems: null });
    const accepted = await post(`/forms/${form.id}/elements`, firstName());
    // Assess
    expect(refused.status).toBe(422);
    expect(paths(refused)).toContain('elements[0].forEventItems');
    expect(cleared.status).toBe(200);
    expect(accepted.status).toBe(201);
  });

  it('refuses creating an order form from a copy whose Email question is limited to cart items', async () => {
    // Act
    const response = await post('/forms', { name: 'Copy', type: 'order', elements: [contactEmail({ forEventItems: [] }), firstName()] });
    // Assess
    expect(response.status).toBe(422);
    expect(paths(response)).toContain('elements[0].forEventItems');
  });
});

/**
 * A submission builds the contact from buyer-section answers only (attendee answers describe ticket
 * holders), so a contact-field question in the attendee section had its answers silently dropped, and
 * a contact Email question there satisfied rule 5 while identifying no contact.
 */
describe('contact-field questions in the attendee section (order forms)', () => {
  const buyerSection = expect.stringContaining('buyer section');

  it('refuses adding the contact Email question for every attendee, so no contact question can lean on it', async () => {
    // Prepare
    const form = await createForm({ type: 'order', status: 'active' });
    // Act
    const added = await post(`/forms/${form.id}/elements`, contactEmail({ askAllAttendees: true }));
    const name = await post(`/forms/${form.id}/elements`, firstName());
    // Assess
    expect(added.status).toBe(422);
    expect(added.body.error.code).toBe('validation_failed');
    expect(added.body.error.details).toEqual([{ path: 'askAllAttendees', message: buyerSection }]);
    expect(name.status).toBe(422);
    expect(paths(name)).toEqual(['']);
    expect((await getForm(form.id)).elements).toEqual([]);
  });

  it('refuses moving a contact question to the attendee section, and keeps it in the buyer section', async () => {
    // Prepare
    const form = await createForm({ type: 'order' });
    const email = await addElement(form.id, contactEmail());
    const name = await addElement(form.id, firstName());
    // Act
    const movedEmail = await post(`/forms/${form.id}/elements/${email.id}/move`, { section: 'attendee' });
    const movedName = await post(`/forms/${form.id}/elements/${name.id}/move`, { section: 'attendee' });
    // Assess
    expect(movedEmail.status).toBe(422);
    expect(movedEmail.body.error.details).toEqual([{ path: 'elements[0].askAllAttendees', message: buyerSection }]);
    expect(movedName.status).toBe(422);
    expect(movedName.body.error.details).toEqual([{ path: 'elements[1].askAllAttendees', message: buyerSection }]);
    const stored = await getForm(form.id);
    expect(stored.elements.map((element: { askAllAttendees: boolean }) => element.askAllAttendees)).toEqual([false, false]);
    expect(stored.attendeeRowsStart).toBe(2);
  });

  it('refuses patching askAllAttendees onto a contact question or a contact field onto an attendee question', async () => {
    // Prepare
    const form = await createForm({ type: 'order' });
    const email = await addElement(form.id, contactEmail());
    const seat = await addElement(form.id, { type: 'Text', prompt: 'Attendee name', askAllAttendees: true });
    // Act
    const toAttendees = await patch(`/forms/${form.id}/elements/${email.id}`, { askAllAttendees: true });
    const contactField = await patch(`/forms/${form.id}/elements/${seat.id}`, { contactField: 'firstName' });
    // Assess
    expect(toAttendees.status).toBe(422);
    expect(toAttendees.body.error.details).toContainEqual({ path: 'askAllAttendees', message: buyerSection });
    expect(contactField.status).toBe(422);
    expect(contactField.body.error.details).toEqual([{ path: 'contactField', message: buyerSection }]);
    expect((await getForm(form.id)).elements[1]).not.toHaveProperty('contactField');
  });

  it('refuses creating an order form from a copy with a contact question in the attendee section', async () => {
    // Act
    const response = await post('/forms', { name: 'Copy', type: 'order', elements: [contactEmail(), { ...firstName(), askAllAttendees: true }] });
    // Assess
    expect(response.status).toBe(422);
    expect(paths(response)).toContain('elements[1].contactField');
  });

  it('refuses duplicating a form stored with a contact question in the attendee section', async () => {
    // Prepare: a form stored before the rule existed
    const legacy = await storeLegacyForm('order', [
      { type: 'Email', prompt: 'Email', contactField: 'email', required: true, askAllAttendees: false },
      { type: 'Text', prompt: 'First name', contactField: 'firstName', askAllAttendees: true },
    ]);
    // Act
    const copy = await post(`/forms/${legacy.id}/duplicate`, {});
    const fixed = await patch(`/forms/${legacy.id}/elements/${legacy.elements[1]?.id}`, { contactField: null });
    const copyOfFixed = await post(`/forms/${legacy.id}/duplicate`, {});
    // Assess
    expect(copy.status).toBe(422);
    expect(copy.body.error.details).toEqual([{ path: 'elements[1].contactField', message: buyerSection }]);
    expect(fixed.status).toBe(200);
    expect(copyOfFixed.status).toBe(201);
  });
});

describe('one question per contact field', () => {
  const alreadySet = (index: number, id: string) => expect.stringMatching(new RegExp(`^contactField "\\w+" is already set by elements\\[${index}\\] \\(id ${id}\\)`));

  it('refuses adding a second question with the same contactField, naming the question that sets it', async () => {
    // Prepare
    const form = await createForm();
    const email = await addElement(form.id, contactEmail());
    const name = await addElement(form.id, firstName());
    // Act
    const secondEmail = await post(`/forms/${form.id}/elements`, contactEmail({ prompt: 'Work email' }));
    const secondName = await post(`/forms/${form.id}/elements`, { ...firstName(), prompt: 'Given name' });
    const lastName = await post(`/forms/${form.id}/elements`, { type: 'Text', prompt: 'Last name', contactField: 'lastName' });
    // Assess
    expect(secondEmail.status).toBe(422);
    expect(secondEmail.body.error.details).toEqual([{ path: 'contactField', message: alreadySet(0, email.id) }]);
    expect(secondName.status).toBe(422);
    expect(secondName.body.error.details).toEqual([{ path: 'contactField', message: alreadySet(1, name.id) }]);
    expect(lastName.status).toBe(201);
  });

  it('refuses patching a contactField another question sets onto a question, whichever comes first in the form', async () => {
    // Prepare: the plain question comes first, the first-name question after it
    const form = await createForm();
    const plain = await addElement(form.id, { type: 'Text', prompt: 'Nickname' });
    await addElement(form.id, contactEmail());
    const name = await addElement(form.id, firstName());
    // Act
    const response = await patch(`/forms/${form.id}/elements/${plain.id}`, { contactField: 'firstName' });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: 'contactField', message: alreadySet(2, name.id) }]);
    expect((await getForm(form.id)).elements[0]).not.toHaveProperty('contactField');
  });

  it('refuses creating a form from a copy with two questions setting one contact field', async () => {
    // Act
    const response = await post('/forms', { name: 'Copy', type: 'standalone', elements: [contactEmail(), contactEmail({ prompt: 'Again' })] });
    // Assess
    expect(response.status).toBe(422);
    expect(paths(response)).toEqual(['elements[1].contactField']);
  });

  it('refuses duplicating a form stored with two questions setting one contact field, until one is unset', async () => {
    // Prepare: a form stored before the rule existed
    const legacy = await storeLegacyForm('standalone', [
      { type: 'Email', prompt: 'Email', contactField: 'email', required: true },
      { type: 'Email', prompt: 'Email again', contactField: 'email', required: true },
    ]);
    // Act
    const copy = await post(`/forms/${legacy.id}/duplicate`, {});
    const fixed = await patch(`/forms/${legacy.id}/elements/${legacy.elements[1]?.id}`, { contactField: null });
    const copyOfFixed = await post(`/forms/${legacy.id}/duplicate`, {});
    // Assess
    expect(copy.status).toBe(422);
    expect(paths(copy)).toEqual(['elements[1].contactField']);
    expect(fixed.status).toBe(200);
    expect(copyOfFixed.status).toBe(201);
  });
});
