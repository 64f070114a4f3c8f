import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(rule.body.error.details[0]).toMatchObject({ path: 'elements[2].logicGroups[0].revealedElementIndex', message: expect.stringContaining('Email') });
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
    for (const refused of [added, linked, opted, patched]) {
      expect(refused.status).toBe(422);
      expect(paths(refused)).toContain('elements[1].logicGroups[0].revealedElementIndex');
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
    expect(updated.body.error.details[0]).toMatchObject({ path: 'elements[0].forEventItems', message: expect.stringContaining('forEventItems') });
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
