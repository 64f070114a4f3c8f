import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { formsFixtures, text, selectOne, yesNo } from './support/forms-fixtures.js';

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Form elements');
});
afterAll(async () => api.close());

const { createForm, addElement, getForm } = formsFixtures(() => ({ api, key: workspace.apiKey }), 'Form');

async function createProperty(body: Record<string, unknown>, key = workspace.apiKey) {
  const response = await api.request('POST', '/v1/properties', { key, body });
  if (response.status !== 201) throw new Error(`createProperty: ${response.status} ${response.text}`);
  return response.body.data;
}

let propertyCounter = 0;
const uniqueName = (base: string) => `${base} ${(propertyCounter += 1)}`;

describe('POST /v1/forms/{formId}/elements', () => {
  it('is 422 on the field\'s path for a Number bound beyond +/-Number.MAX_SAFE_INTEGER, and adds nothing', async () => {
    // Prepare
    const form = await createForm();
    // Act
    const response = await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: { type: 'Number', prompt: 'Guests', minValue: 0, maxValue: 1e20 } });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: 'maxValue', message: expect.stringMatching(/9007199254740991/) }]);
    expect((await getForm(form.id)).elements).toEqual([]);
  });
});

describe('file kinds and whole-number bounds', () => {
  it.each([
    ['a file kind listed twice', { type: 'File', prompt: 'CV', accept: ['images', 'images'] }, 'accept'],
    ['integerOnly with bounds that admit no whole number', { type: 'Number', prompt: 'Seats', minValue: 1.2, maxValue: 1.8, integerOnly: true }, 'integerOnly'],
  ])('refuses %s', async (_name, element, path) => {
    // Prepare
    const form = await createForm();
    // Act
    const response = await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: element });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toEqual([path]);
  });
});

describe('POST /v1/forms/{formId}/elements/{elementId}/other', () => {
  it('enables Other with a prompt and disables it again', async () => {
    const form = await createForm();
    const element = await addElement(form.id, selectOne());
    const on = await api.request('POST', `/v1/forms/${form.id}/elements/${element.id}/other`, { key: workspace.apiKey, body: { enabled: true, otherPrompt: 'Another size' } });
    const off = await api.request('POST', `/v1/forms/${form.id}/elements/${element.id}/other`, { key: workspace.apiKey, body: { enabled: false } });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ type: 'Select One or "Other"', otherPrompt: 'Another size' });
    expect(off.body.data.type).toBe('Select One');
    expect(off.body.data).not.toHaveProperty('otherPrompt');
  });

  it('is 422 without otherPrompt and on a non-selection element', async () => {
    const form = await createForm();
    const select = await addElement(form.id, selectOne());
    const plain = await addElement(form.id, text());
    const noPrompt = await api.request('POST', `/v1/forms/${form.id}/elements/${select.id}/other`, { key: workspace.apiKey, body: { enabled: true } });
    const notSelection = await api.request('POST', `/v1/forms/${form.id}/elements/${plain.id}/other`, { key: workspace.apiKey, body: { enabled: true, otherPrompt: 'x' } });
    expect(noPrompt.status).toBe(422);
    expect(noPrompt.body.error.details[0].path).toBe('otherPrompt');
    expect(notSelection.status).toBe(422);
  });
});

describe('POST /v1/forms/{formId}/elements/{elementId}/move', () => {
  it('moves an element to the attendee section of an order form', async () => {
    const form = await createForm({ type: 'order' });
    const first = await addElement(form.id, text('Buyer 1'));
    await addElement(form.id, text('Buyer 2'));
    const response = await api.request('POST', `/v1/forms/${form.id}/elements/${first.id}/move`, { key: workspace.apiKey, body: { section: 'attendee' } });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ attendeeRowsStart: 1, rows: [{ columns: [{ elementIndex: 1, widthFraction: 1 }] }, { columns: [{ elementIndex: 0, widthFraction: 1 }] }] });
    expect(response.body.data.elements[0].askAllAttendees).toBe(true);
  });

  it('is 422 on standalone forms and when an attendee element would reveal a buyer element', async () => {
    const standalone = await createForm();
    const lone = await addElement(standalone.id, text());
    const order = await createForm({ type: 'order' });
    const source = await addElement(order.id, yesNo());
    const target = await addElement(order.id, text('Revealed'));
    await api.request('POST', `/v1/forms/${order.id}/elements/${source.id}/logic-rules`, { key: workspace.apiKey, body: { revealedElementId: target.id, condition: { selectionType: 'is', value: true } } });
    const onStandalone = await api.request('POST', `/v1/forms/${standalone.id}/elements/${lone.id}/move`, { key: workspace.apiKey, body: { section: 'attendee' } });
    const revealsBuyer = await api.request('POST', `/v1/forms/${order.id}/elements/${source.id}/move`, { key: workspace.apiKey, body: { section: 'attendee' } });
    expect(onStandalone.status).toBe(422);
    expect(revealsBuyer.status).toBe(422);
    expect(revealsBuyer.body.error.details[0].path).toBe('elements[0].logicGroups[0].revealedElementIndex');
  });
});

describe('POST /v1/forms/{formId}/elements/{elementId}/logic-rules', () => {
  it('adds selection and Yes/No rules and returns the source element', async () => {
    const form = await createForm();
    const size = await addElement(form.id, selectOne());
    const news = await addElement(form.id, yesNo());
    const target = await addElement(form.id, text('Why?'));
    const selection = await api.request('POST', `/v1/forms/${form.id}/elements/${size.id}/logic-rules`, { key: workspace.apiKey, body: { revealedElementId: target.id, condition: { optionIndices: [0, 2], operator: 'any_of' } } });
    const yes = await api.request('POST', `/v1/forms/${form.id}/elements/${news.id}/logic-rules`, { key: workspace.apiKey, body: { revealedElementId: target.id, condition: { selectionType: 'is_not', value: false } } });
    expect(selection.status).toBe(201);
    expect(selection.body.data.logicGroups).toEqual([{ revealedElementIndex: 2, optionIndices: [0, 2], operator: 'any_of' }]);
    expect(yes.status).toBe(201);
    expect(yes.body.data.logicGroups).toEqual([{ revealedElementIndex: 2, selectionType: 'is_not', value: false }]);
  });

  it('refuses a rule that closes a reveal cycle no other element leads into (both questions would never be shown)', async () => {
    // Prepare: A reveals B
    const form = await createForm();
    const a = await addElement(form.id, yesNo());
    const b = await addElement(form.id, yesNo());
    const rule = (source: string, revealed: string) => api.request('POST', `/v1/forms/${form.id}/elements/${source}/logic-rules`, {
      key: workspace.apiKey, body: { revealedElementId: revealed, condition: { selectionType: 'is', value: true } },
    });
    expect((await rule(a.id, b.id)).status).toBe(201);
    // Act: B reveals A
    const closing = await rule(b.id, a.id);
    // Assess: named on the rule sent; nothing stored
    expect(closing.status).toBe(422);
    expect(closing.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['revealedElementId']);
    expect(closing.body.error.message).toMatch(/would never be shown/);
    expect((await getForm(form.id)).elements[1]).not.toHaveProperty('logicGroups');
  });

  it.each([
    ['a Text source', 'text', { optionIndices: [0], operator: 'any_of' }, 'elementId'],
    ['a self reveal', 'self', { optionIndices: [0], operator: 'any_of' }, 'revealedElementId'],
    ['an option index out of range', 'target', { optionIndices: [3], operator: 'any_of' }, 'condition.optionIndices[0]'],
    ['-1 without Other', 'target', { optionIndices: [-1], operator: 'any_of' }, 'condition.optionIndices[0]'],
  ])('rejects %s with 422', async (_name, kind, condition, path) => {
    const form = await createForm();
    const size = await addElement(form.id, selectOne());
    const target = await addElement(form.id, text());
    const source = kind === 'text' ? target : size;
    const revealed = kind === 'self' ? size : kind === 'text' ? size : target;
    const response = await api.request('POST', `/v1/forms/${form.id}/elements/${source.id}/logic-rules`, { key: workspace.apiKey, body: { revealedElementId: revealed.id, condition } });
    expect(response.status).toBe(422);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });
});

describe('logic conditions and groups of the wrong shape', () => {
  it('names the wrong field of a condition and its allowed values, and the allowed shapes when no shape fits', async () => {
    // Prepare
    const form = await createForm();
    const size = await addElement(form.id, selectOne());
    const target = await addElement(form.id, text());
    const add = (condition: unknown) => api.request('POST', `/v1/forms/${form.id}/elements/${size.id}/logic-rules`, { key: workspace.apiKey, body: { revealedElementId: target.id, condition } });
    // Act
    const operator = await add({ optionIndices: [0], operator: 'one_of' });
    const empty = await add({});
    // Assess
    expect(operator.status).toBe(422);
    expect(operator.body.error.details).toEqual([{ path: 'condition.operator', message: 'Invalid option: expected one of "all_of"|"any_of"|"none_of"' }]);
    expect(empty.body.error.details).toEqual([{ path: 'condition', message: expect.stringContaining('{selectionType: "is"|"is_not", value: boolean} (Yes/No source)') }]);
  });

  it('names the value of a Yes/No group patched with a string', async () => {
    // Prepare
    const form = await createForm();
    const news = await addElement(form.id, yesNo());
    await addElement(form.id, text());
    // Act
    const response = await api.request('PATCH', `/v1/forms/${form.id}/elements/${news.id}`, {
      key: workspace.apiKey, body: { logicGroups: [{ revealedElementIndex: 1, selectionType: 'is', value: 'true' }] },
    });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: 'logicGroups[0].value', message: 'Invalid input: expected boolean, received string' }]);
  });
});

describe('DELETE /v1/forms/{formId}/elements/{elementId}/logic-rules/{revealedElementId}', () => {
  it('removes the rules targeting one element and then logicGroups entirely', async () => {
    const form = await createForm();
    const size = await addElement(form.id, selectOne());
    const a = await addElement(form.id, text('A'));
    const b = await addElement(form.id, text('B'));
    for (const target of [a, b, a]) {
      await api.request('POST', `/v1/forms/${form.id}/elements/${size.id}/logic-rules`, { key: workspace.apiKey, body: { revealedElementId: target.id, condition: { optionIndices: [1], operator: 'any_of' } } });
    }
    const first = await api.request('DELETE', `/v1/forms/${form.id}/elements/${size.id}/logic-rules/${a.id}`, { key: workspace.apiKey });
    const second = await api.request('DELETE', `/v1/forms/${form.id}/elements/${size.id}/logic-rules/${b.id}`, { key: workspace.apiKey });
    const again = await api.request('DELETE', `/v1/forms/${form.id}/elements/${size.id}/logic-rules/${b.id}`, { key: workspace.apiKey });
    expect(first.status).toBe(200);
    expect(first.body.data.logicGroups).toEqual([{ revealedElementIndex: 2, optionIndices: [1], operator: 'any_of' }]);
    expect(second.body.data).not.toHaveProperty('logicGroups');
    expect(again.status).toBe(404);
  });
});

describe('CRM property linkage', () => {
  it('fills propertyData on read from the linked property and never stores it', async () => {
    // Prepare
    const shirt = await createProperty({ type: 'Select One', name: uniqueName('Shirt'), objectType: 'contact', options: [{ value: 's', label: 'Small' }] });
    const form = await createForm();
    await addElement(form.id, { type: 'Email', prompt: 'Email', contactField: 'email', required: true });
    const question = await addElement(form.id, { type: 'Select One', prompt: 'Shirt', propertyId: shirt.id });
    // Act
    await api.request('PATCH', `/v1/properties/${shirt.id}`, { key: workspace.apiKey, body: { options: [{ value: 's', label: 'Small' }, { value: 'm', label: 'Medium' }] } });
    const read = await getForm(form.id);
    // Assess
    expect(question.propertyData).toEqual({ type: 'Select One', objectType: 'contact', status: 'active', options: [{ value: 's', label: 'Small' }] });
    expect(read.elements[1].propertyData.options).toHaveLength(2);
  });

  it('reads every linked property of a form with one batch read', async () => {
    // Prepare
    const form = await createForm();
    await addElement(form.id, { type: 'Email', prompt: 'Email', contactField: 'email', required: true });
    for (const type of ['Text', 'Number', 'Date']) {
      const linked = await createProperty({ type, name: uniqueName(type), objectType: 'contact' });
      await addElement(form.id, { type, prompt: type, propertyId: linked.id });
    }
    // Act
    const response = await api.request('GET', `/v1/forms/${form.id}`, { key: workspace.apiKey });
    // Assess: one GetItem for the form, one BatchGetItem for its three properties
    expect(response.headers.get('x-db-stats')).toMatch(/^calls=2;/);
    expect(response.body.data.elements.filter((element: { propertyData?: unknown }) => element.propertyData)).toHaveLength(3);
  });

  it.each([
    ['a property of another type', { type: 'Number', objectType: 'contact' }, 'Text'],
    ['an order property on a standalone form', { type: 'Text', objectType: 'order' }, 'Text'],
  ])('rejects %s with 422 on propertyId', async (_name, property, questionType) => {
    const linked = await createProperty({ ...property, name: uniqueName('P') });
    const form = await createForm();
    await addElement(form.id, { type: 'Email', prompt: 'Email', contactField: 'email', required: true });
    const response = await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: { type: questionType, prompt: 'Q', propertyId: linked.id } });
    expect(response.status).toBe(422);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain('propertyId');
  });

  it('treats another workspace\'s property as absent', async () => {
    const stranger = await api.newWorkspace('Stranger');
    const foreign = await createProperty({ type: 'Text', name: uniqueName('Foreign'), objectType: 'order' }, stranger.apiKey);
    const form = await createForm({ type: 'order' });
    const response = await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: { type: 'Text', prompt: 'Q', propertyId: foreign.id } });
    expect(response.status).toBe(422);
    expect(response.body.error.details[0]).toMatchObject({ path: 'propertyId' });
  });

  it('accepts ticket properties for attendee questions of order forms only', async () => {
    const ticket = await createProperty({ type: 'Text', name: uniqueName('Dietary'), objectType: 'ticket' });
    const form = await createForm({ type: 'order' });
    const buyer = await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: { type: 'Text', prompt: 'Diet', propertyId: ticket.id } });
    const attendee = await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: { type: 'Text', prompt: 'Diet', propertyId: ticket.id, askAllAttendees: true } });
    expect(buyer.status).toBe(422);
    expect(attendee.status).toBe(201);
    expect(attendee.body.data).toMatchObject({ askAllAttendees: true, propertyData: { objectType: 'ticket' } });
  });

  it('requires a required contact Email question once a contact field is used (rule 5)', async () => {
    const form = await createForm();
    const withoutEmail = await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: { type: 'Text', prompt: 'First name', contactField: 'firstName' } });
    const email = await addElement(form.id, { type: 'Email', prompt: 'Email', contactField: 'email', required: true });
    await addElement(form.id, { type: 'Text', prompt: 'First name', contactField: 'firstName' });
    const optionalEmail = await api.request('PATCH', `/v1/forms/${form.id}/elements/${email.id}`, { key: workspace.apiKey, body: { required: false } });
    expect(withoutEmail.status).toBe(422);
    expect(optionalEmail.status).toBe(422);
    expect(optionalEmail.body.error.details[0].path).toBe('required');
  });

  it('refuses an archived property newly chosen by a question even when another question of the form links it, and keeps existing links', async () => {
    // Prepare: A links P, then P is archived
    const company = await createProperty({ type: 'Text', name: uniqueName('Company'), objectType: 'contact' });
    const form = await createForm();
    await addElement(form.id, { type: 'Email', prompt: 'Email', contactField: 'email', required: true });
    const linked = await addElement(form.id, { type: 'Text', prompt: 'Company', propertyId: company.id });
    const other = await addElement(form.id, text('Employer'));
    const archive = await api.request('PATCH', `/v1/properties/${company.id}`, { key: workspace.apiKey, body: { status: 'archived' } });
    // Act
    const patched = await api.request('PATCH', `/v1/forms/${form.id}/elements/${other.id}`, { key: workspace.apiKey, body: { propertyId: company.id } });
    const added = await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: { type: 'Text', prompt: 'new', propertyId: company.id } });
    const stored = (await getForm(form.id)).elements[1];
    const kept = await api.request('PATCH', `/v1/forms/${form.id}/elements/${linked.id}`, { key: workspace.apiKey, body: stored });
    // Assess
    expect(archive.status).toBe(200);
    expect(patched.status).toBe(422);
    expect(patched.body.error.details).toEqual([{ path: 'propertyId', message: 'archived properties cannot be linked to questions' }]);
    expect(added.status).toBe(422);
    expect(added.body.error.details).toEqual([{ path: 'propertyId', message: 'archived properties cannot be linked to questions' }]);
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ propertyId: company.id, propertyData: { status: 'archived' } });
    expect((await getForm(form.id)).elements.map((element: { propertyId?: string }) => element.propertyId)).toEqual([undefined, company.id, undefined]);
  });

  it('refuses a new form whose copied question links an archived property; a duplicate of the form keeps the link', async () => {
    // Prepare: a form links P, then P is archived
    const company = await createProperty({ type: 'Text', name: uniqueName('Company'), objectType: 'contact' });
    const form = await createForm();
    await addElement(form.id, { type: 'Email', prompt: 'Email', contactField: 'email', required: true });
    await addElement(form.id, { type: 'Text', prompt: 'Company', propertyId: company.id });
    await api.request('PATCH', `/v1/properties/${company.id}`, { key: workspace.apiKey, body: { status: 'archived' } });
    const original = await getForm(form.id);
    // Act
    const copy = await api.request('POST', '/v1/forms', { key: workspace.apiKey, body: { ...original, name: 'Copy' } });
    const duplicate = await api.request('POST', `/v1/forms/${form.id}/duplicate`, { key: workspace.apiKey, body: {} });
    // Assess
    expect(copy.status).toBe(422);
    expect(copy.body.error.details).toEqual([{ path: 'elements[1].propertyId', message: 'archived properties cannot be linked to questions' }]);
    expect(duplicate.status).toBe(201);
    expect(duplicate.body.data.elements[1]).toMatchObject({ propertyId: company.id, propertyData: { status: 'archived' } });
  });

  it('switches a select question from its own options to a property with null', async () => {
    const sizes = await createProperty({ type: 'Select One', name: uniqueName('Sizes'), objectType: 'contact', options: [{ value: 'xl', label: 'XL' }] });
    const form = await createForm();
    await addElement(form.id, { type: 'Email', prompt: 'Email', contactField: 'email', required: true });
    const select = await addElement(form.id, selectOne());
    const both = await api.request('PATCH', `/v1/forms/${form.id}/elements/${select.id}`, { key: workspace.apiKey, body: { propertyId: sizes.id } });
    const switched = await api.request('PATCH', `/v1/forms/${form.id}/elements/${select.id}`, { key: workspace.apiKey, body: { propertyId: sizes.id, options: null } });
    expect(both.status).toBe(422);
    expect(both.body.error.details[0].path).toBe('options');
    expect(switched.status).toBe(200);
    expect(switched.body.data).not.toHaveProperty('options');
    expect(switched.body.data.propertyData.options).toEqual([{ value: 'xl', label: 'XL' }]);
  });
});

describe('a linked property whose options shrink after linking', () => {
  async function shrunkForm() {
    const topics = await createProperty({
      type: 'Select Multiple', name: uniqueName('Topics'), objectType: 'contact',
      options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }, { value: 'c', label: 'C' }],
    });
    const form = await createForm();
    await addElement(form.id, { type: 'Email', prompt: 'Email', contactField: 'email', required: true });
    const source = await addElement(form.id, { type: 'Select Multiple', prompt: 'Topics', propertyId: topics.id, minChoices: 2 });
    const follow = await addElement(form.id, text('Why C?'));
    const rule = await api.request('POST', `/v1/forms/${form.id}/elements/${source.id}/logic-rules`, {
      key: workspace.apiKey, body: { revealedElementId: follow.id, condition: { optionIndices: [2], operator: 'any_of' } },
    });
    if (rule.status !== 201) throw new Error(`logic rule: ${rule.status} ${rule.text}`);
    const shrink = await api.request('PATCH', `/v1/properties/${topics.id}`, { key: workspace.apiKey, body: { options: [{ value: 'a', label: 'A' }] } });
    if (shrink.status !== 200) throw new Error(`shrink: ${shrink.status} ${shrink.text}`);
    return { form, source, follow };
  }

  it('still lets the host edit, extend, rename and duplicate the form', async () => {
    // Prepare
    const { form, follow } = await shrunkForm();
    // Act
    const edited = await api.request('PATCH', `/v1/forms/${form.id}/elements/${follow.id}`, { key: workspace.apiKey, body: { prompt: 'Why?' } });
    const added = await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: text('More') });
    const settings = await api.request('PATCH', `/v1/forms/${form.id}`, { key: workspace.apiKey, body: { name: 'Renamed' } });
    const copy = await api.request('POST', `/v1/forms/${form.id}/duplicate`, { key: workspace.apiKey, body: {} });
    // Assess
    expect([edited.status, added.status, settings.status, copy.status]).toEqual([200, 201, 200, 201]);
    expect(copy.body.data.elements[1].logicGroups).toEqual([{ revealedElementIndex: 2, optionIndices: [2], operator: 'any_of' }]);
  });

  it('still judges option indices and minChoices the host sends anew against the current options', async () => {
    // Prepare
    const { form, source, follow } = await shrunkForm();
    // Act
    const newRule = await api.request('POST', `/v1/forms/${form.id}/elements/${source.id}/logic-rules`, {
      key: workspace.apiKey, body: { revealedElementId: follow.id, condition: { optionIndices: [1], operator: 'any_of' } },
    });
    const newMinimum = await api.request('PATCH', `/v1/forms/${form.id}/elements/${source.id}`, { key: workspace.apiKey, body: { minChoices: 3 } });
    // Assess
    expect(newRule.status).toBe(422);
    expect(newRule.body.error.details).toEqual([{ path: 'condition.optionIndices[0]', message: 'option index 1 is out of range (1 options)' }]);
    expect(newMinimum.status).toBe(422);
    expect(newMinimum.body.error.details).toEqual([{ path: 'minChoices', message: 'minChoices exceeds the number of options (1)' }]);
  });
});

describe('DELETE /v1/forms/{formId}/elements/{elementId} with If-Match', () => {
  it('answers a stale version with 409 and keeps the element', async () => {
    const form = await createForm();
    const element = await addElement(form.id, text());
    const response = await api.request('DELETE', `/v1/forms/${form.id}/elements/${element.id}`, { key: workspace.apiKey, headers: { 'If-Match': '1' } });
    expect(response.status).toBe(409);
    expect((await getForm(form.id)).elements).toHaveLength(1);
  });
});
