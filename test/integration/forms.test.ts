import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { formsFixtures, text, selectOne } from './support/forms-fixtures.js';

let api: TestApi;
let workspace: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Forms');
  other = await api.newWorkspace('Other forms');
});
afterAll(async () => api.close());

const { createForm, addElement, getForm } = formsFixtures(() => ({ api, key: workspace.apiKey }), 'Registration');

describe('POST /v1/forms', () => {
  it('creates an empty draft standalone form', async () => {
    // Act
    const response = await api.request('POST', '/v1/forms', { key: workspace.apiKey, body: { name: 'Signup', type: 'standalone' } });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      name: 'Signup', type: 'standalone', isEventForm: false, status: 'draft', elements: [], rows: [], attendeeRowsStart: 0,
      ownerId: workspace.workspaceId, version: 1, submitButtonText: 'Submit', submitButtonWidth: 'auto',
    });
    expect(response.body.data.id).toMatch(/^[a-f0-9]{24}$/);
  });

  it('marks order forms as event forms', async () => {
    const form = await createForm({ type: 'order', status: 'active' });
    expect(form).toMatchObject({ type: 'order', isEventForm: true, status: 'active' });
  });

  it.each([
    [{ type: 'standalone' }, 'name'],
    [{ name: 'x', type: 'survey' }, 'type'],
    [{ name: 'x', type: 'order', isEventForm: false }, 'isEventForm'],
    [{ name: 'x', type: 'standalone', isEventForm: true }, 'isEventForm'],
    [{ name: 'x', type: 'order', submitButtonWidth: 'half' }, 'submitButtonWidth'],
    [{ name: 'x', type: 'standalone', attendeeRowsStart: 1 }, 'attendeeRowsStart'],
    [{ name: 'x', type: 'standalone', elements: [{ type: 'Text', prompt: 'A' }], rows: [{ columns: [{ elementIndex: 0, widthFraction: 1 }] }], attendeeRowsStart: 1 }, 'attendeeRowsStart'],
  ])('rejects %j with 422 naming %s', async (body, path) => {
    const response = await api.request('POST', '/v1/forms', { key: workspace.apiKey, body });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });
});

describe('GET /v1/forms/{formId}', () => {
  it('returns the form with its elements', async () => {
    const form = await createForm();
    await addElement(form.id, text('First name'));
    const response = await api.request('GET', `/v1/forms/${form.id}`, { key: workspace.apiKey });
    expect(response.status).toBe(200);
    expect(response.body.data.elements).toEqual([expect.objectContaining({ prompt: 'First name', type: 'Text' })]);
  });

  it('is 404 for another workspace\'s form and for a malformed id', async () => {
    const form = await createForm({}, other.apiKey);
    const foreign = await api.request('GET', `/v1/forms/${form.id}`, { key: workspace.apiKey });
    const malformed = await api.request('GET', '/v1/forms/not-an-id', { key: workspace.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect(malformed.status).toBe(404);
  });

  it('is 404 when another workspace tries to change or delete elements of the form', async () => {
    const form = await createForm({}, other.apiKey);
    const patch = await api.request('PATCH', `/v1/forms/${form.id}`, { key: workspace.apiKey, body: { name: 'Hijack' } });
    const add = await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: text() });
    expect(patch.status).toBe(404);
    expect(add.status).toBe(404);
  });
});

describe('GET /v1/forms', () => {
  it('filters by status and sorts by name in both directions', async () => {
    // Prepare
    const lister = await api.newWorkspace('List');
    for (const [name, status] of [['banana', 'active'], ['Apple', 'active'], ['cherry', 'draft']]) {
      await createForm({ name, status }, lister.apiKey);
    }
    // Act
    const asc = await api.request('GET', '/v1/forms?sort=name&status=active', { key: lister.apiKey });
    const desc = await api.request('GET', '/v1/forms?sort=name&direction=desc', { key: lister.apiKey });
    // Assess
    expect(asc.status).toBe(200);
    expect(asc.body.data.map((form: { name: string }) => form.name)).toEqual(['Apple', 'banana']);
    expect(desc.body.data.map((form: { name: string }) => form.name)).toEqual(['cherry', 'banana', 'Apple']);
  });

  it('pages through forms in creation order with hasMore', async () => {
    const lister = await api.newWorkspace('Pages');
    for (const name of ['one', 'two', 'three']) await createForm({ name }, lister.apiKey);
    const first = await api.request('GET', '/v1/forms?limit=2', { key: lister.apiKey });
    const second = await api.request('GET', '/v1/forms?limit=2&page=1', { key: lister.apiKey });
    expect(first.body).toMatchObject({ page: 0, limit: 2, total: 2, hasMore: true });
    expect(first.body.data.map((form: { name: string }) => form.name)).toEqual(['one', 'two']);
    expect(second.body).toMatchObject({ total: 1, hasMore: false });
  });

  it('sorts by updatedAt so the last edited form comes last', async () => {
    const lister = await api.newWorkspace('Updated');
    const first = await createForm({ name: 'first' }, lister.apiKey);
    await createForm({ name: 'second' }, lister.apiKey);
    await api.request('PATCH', `/v1/forms/${first.id}`, { key: lister.apiKey, body: { name: 'first edited' } });
    const response = await api.request('GET', '/v1/forms?sort=updatedAt', { key: lister.apiKey });
    expect(response.body.data.map((form: { name: string }) => form.name)).toEqual(['second', 'first edited']);
  });

  it.each(['limit=0', 'limit=101', 'sort=prompt', 'status=deleted', 'page=-1'])('answers %s with 400 invalid_query', async (query) => {
    const response = await api.request('GET', `/v1/forms?${query}`, { key: workspace.apiKey });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_query');
  });
});

describe('PATCH /v1/forms/{formId}', () => {
  it('changes only the provided settings and bumps the version', async () => {
    const form = await createForm({ submitButtonText: 'Send' });
    const response = await api.request('PATCH', `/v1/forms/${form.id}`, { key: workspace.apiKey, body: { status: 'active', submitButtonAlign: 'center' } });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'active', submitButtonAlign: 'center', submitButtonText: 'Send', name: form.name, version: 2 });
  });

  it.each([{ type: 'order' }, { isEventForm: true }])('rejects the immutable %j with 422', async (body) => {
    const form = await createForm();
    const response = await api.request('PATCH', `/v1/forms/${form.id}`, { key: workspace.apiKey, body });
    expect(response.status).toBe(422);
    expect(response.body.error.details[0].path).toBe(Object.keys(body)[0]);
  });

  it('answers a stale If-Match with 409 conflict and applies a current one', async () => {
    const form = await createForm();
    await api.request('PATCH', `/v1/forms/${form.id}`, { key: workspace.apiKey, body: { name: 'v2' } });
    const stale = await api.request('PATCH', `/v1/forms/${form.id}`, { key: workspace.apiKey, body: { name: 'stale' }, headers: { 'If-Match': '1' } });
    const current = await api.request('PATCH', `/v1/forms/${form.id}`, { key: workspace.apiKey, body: { name: 'v3' }, headers: { 'If-Match': '2' } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('conflict');
    expect(current.status).toBe(200);
    expect(current.body.data).toMatchObject({ name: 'v3', version: 3 });
  });
});

describe('POST /v1/forms/{formId}/elements', () => {
  it('appends each element of a standalone form in a new full-width row at the end', async () => {
    const form = await createForm();
    const first = await addElement(form.id, text('A'));
    await addElement(form.id, selectOne());
    const stored = await getForm(form.id);
    expect(first.id).toMatch(/^[a-f0-9]{24}$/);
    expect(stored.rows).toEqual([
      { columns: [{ elementIndex: 0, widthFraction: 1 }] },
      { columns: [{ elementIndex: 1, widthFraction: 1 }] },
    ]);
    expect(stored.attendeeRowsStart).toBe(0);
  });

  it('inserts order-form elements at the end of the buyer section and shifts attendeeRowsStart', async () => {
    // Prepare
    const form = await createForm({ type: 'order' });
    await addElement(form.id, text('Buyer'));
    await addElement(form.id, { ...text('Attendee'), askAllAttendees: true });
    // Act
    const added = await addElement(form.id, text('Second buyer'));
    // Assess
    const stored = await getForm(form.id);
    expect(added.askAllAttendees).toBe(false);
    expect(stored.attendeeRowsStart).toBe(2);
    expect(stored.rows.map((row: { columns: { elementIndex: number }[] }) => row.columns[0]?.elementIndex)).toEqual([0, 2, 1]);
    expect(stored.elements.every((element: { askAllAttendees?: boolean }) => typeof element.askAllAttendees === 'boolean')).toBe(true);
  });

  it.each([
    [{ type: 'Date', prompt: 'When', placeholder: 'x' }, 'placeholder'],
    [{ type: 'Select One', prompt: 'Pick' }, 'options'],
    [{ type: 'Select Multiple', prompt: 'Pick', options: ['a'] }, 'minChoices'],
    [{ type: 'Yes/No', prompt: 'Ok?' }, 'dropdown'],
    [{ type: 'File', prompt: 'Upload', accept: [] }, 'accept'],
  ])('rejects %j with 422 naming %s', async (element, path) => {
    const form = await createForm();
    const response = await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: element });
    expect(response.status).toBe(422);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });
});

describe('PATCH /v1/forms/{formId}/elements/{elementId}', () => {
  it('changes only the provided fields', async () => {
    const form = await createForm();
    const element = await addElement(form.id, { ...text('Name'), placeholder: 'Jane', required: true });
    const response = await api.request('PATCH', `/v1/forms/${form.id}/elements/${element.id}`, { key: workspace.apiKey, body: { prompt: 'Full name' } });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ id: element.id, type: 'Text', prompt: 'Full name', placeholder: 'Jane', required: true });
  });

  it('accepts and keeps a placeholder on a radio Select One (it has effect only as a dropdown), and the public form carries it', async () => {
    // Prepare
    const form = await createForm({ status: 'active' });
    const dropdown = await addElement(form.id, { type: 'Select One', prompt: 'Size', options: ['S', 'M'], dropdown: true, placeholder: 'Pick a size' });
    // Act
    const radio = await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: { type: 'Select One', prompt: 'r', options: ['a'], dropdown: false, placeholder: 'p' } });
    const toRadio = await api.request('PATCH', `/v1/forms/${form.id}/elements/${dropdown.id}`, { key: workspace.apiKey, body: { dropdown: false } });
    const roundTrip = await api.request('PATCH', `/v1/forms/${form.id}/elements/${dropdown.id}`, { key: workspace.apiKey, body: toRadio.body.data });
    const published = await api.request('GET', `/forms/${form.id}`);
    // Assess
    expect(radio.status).toBe(201);
    expect(radio.body.data).toMatchObject({ dropdown: false, placeholder: 'p' });
    expect(toRadio.status).toBe(200);
    expect(toRadio.body.data).toMatchObject({ dropdown: false, placeholder: 'Pick a size' });
    expect(roundTrip.status).toBe(200);
    expect(published.status).toBe(200);
    expect(published.body.data.elements).toMatchObject([{ dropdown: false, placeholder: 'Pick a size' }, { dropdown: false, placeholder: 'p' }]);
  });

  it('refuses a type change and fields the type does not have', async () => {
    const form = await createForm();
    const element = await addElement(form.id, text());
    const typeChange = await api.request('PATCH', `/v1/forms/${form.id}/elements/${element.id}`, { key: workspace.apiKey, body: { type: 'Email' } });
    const foreignField = await api.request('PATCH', `/v1/forms/${form.id}/elements/${element.id}`, { key: workspace.apiKey, body: { minChoices: 1 } });
    expect(typeChange.status).toBe(422);
    expect(typeChange.body.error.details[0].path).toBe('type');
    expect(foreignField.status).toBe(422);
  });

  it('keeps all of 20 concurrent edits to different elements of one form', async () => {
    // Prepare
    const form = await createForm();
    const elements = [];
    for (let i = 0; i < 20; i += 1) elements.push(await addElement(form.id, text(`Q${i}`)));
    // Act
    const responses = await Promise.all(elements.map((element, i) =>
      api.request('PATCH', `/v1/forms/${form.id}/elements/${element.id}`, { key: workspace.apiKey, body: { prompt: `Edited ${i}` } })));
    // Assess
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    const stored = await getForm(form.id);
    expect(stored.elements.map((element: { prompt: string }) => element.prompt)).toEqual(elements.map((_element, i) => `Edited ${i}`));
    expect(stored.version).toBe(1 + 20 + 20);
  });

  it('answers a stale If-Match with 409', async () => {
    const form = await createForm();
    const element = await addElement(form.id, text());
    const response = await api.request('PATCH', `/v1/forms/${form.id}/elements/${element.id}`, { key: workspace.apiKey, body: { prompt: 'x' }, headers: { 'If-Match': '1' } });
    expect(response.status).toBe(409);
  });

  it('is 404 for an unknown element', async () => {
    const form = await createForm();
    const response = await api.request('PATCH', `/v1/forms/${form.id}/elements/${form.id}`, { key: workspace.apiKey, body: { prompt: 'x' } });
    expect(response.status).toBe(404);
  });
});

describe('DELETE /v1/forms/{formId}/elements/{elementId}', () => {
  it('removes the column, the emptied row and the groups revealing it, and renumbers every index past it', async () => {
    // Prepare: [0: Size select] reveals 1 and 3; [1: text], [2: text deleted], [3: text]; rows: [0], [1 | 2], [3]
    const form = await createForm();
    const size = await addElement(form.id, selectOne());
    const ids = [size.id];
    for (const prompt of ['B', 'C', 'D']) ids.push((await addElement(form.id, text(prompt))).id);
    await api.request('PUT', `/v1/forms/${form.id}/layout`, {
      key: workspace.apiKey,
      body: {
        rows: [
          { columns: [{ elementIndex: 0, widthFraction: 1 }] },
          { columns: [{ elementIndex: 1, widthFraction: 0.5 }, { elementIndex: 2, widthFraction: 0.5 }] },
          { columns: [{ elementIndex: 3, widthFraction: 1 }] },
        ],
        attendeeRowsStart: 0,
      },
    });
    for (const target of [ids[2], ids[3]]) {
      await api.request('POST', `/v1/forms/${form.id}/elements/${size.id}/logic-rules`, {
        key: workspace.apiKey, body: { revealedElementId: target, condition: { optionIndices: [0], operator: 'any_of' } },
      });
    }
    // Act
    const response = await api.request('DELETE', `/v1/forms/${form.id}/elements/${ids[2]}`, { key: workspace.apiKey });
    // Assess
    expect(response.status).toBe(204);
    const stored = await getForm(form.id);
    expect(stored.elements.map((element: { prompt: string }) => element.prompt)).toEqual(['Size', 'B', 'D']);
    expect(stored.rows).toEqual([
      { columns: [{ elementIndex: 0, widthFraction: 1 }] },
      { columns: [{ elementIndex: 1, widthFraction: 1 }] },
      { columns: [{ elementIndex: 2, widthFraction: 1 }] },
    ]);
    expect(stored.elements[0].logicGroups).toEqual([{ revealedElementIndex: 2, optionIndices: [0], operator: 'any_of' }]);
  });

  it('moves attendeeRowsStart up when a buyer row disappears', async () => {
    const form = await createForm({ type: 'order' });
    const buyer = await addElement(form.id, text('Buyer'));
    await addElement(form.id, { ...text('Attendee'), askAllAttendees: true });
    await api.request('DELETE', `/v1/forms/${form.id}/elements/${buyer.id}`, { key: workspace.apiKey });
    const stored = await getForm(form.id);
    expect(stored.attendeeRowsStart).toBe(0);
    expect(stored.rows).toEqual([{ columns: [{ elementIndex: 0, widthFraction: 1 }] }]);
  });
});

describe('PUT /v1/forms/{formId}/layout', () => {
  it('places two elements side by side', async () => {
    const form = await createForm();
    await addElement(form.id, text('A'));
    await addElement(form.id, text('B'));
    const rows = [{ columns: [{ elementIndex: 1, widthFraction: 0.3 }, { elementIndex: 0, widthFraction: 0.7 }] }];
    const response = await api.request('PUT', `/v1/forms/${form.id}/layout`, { key: workspace.apiKey, body: { rows, attendeeRowsStart: 0 } });
    expect(response.status).toBe(200);
    expect(response.body.data.rows).toEqual(rows);
  });

  it.each([
    [[{ columns: [{ elementIndex: 0, widthFraction: 0.5 }, { elementIndex: 1, widthFraction: 0.4 }] }], 'rows[0].columns'],
    [[{ columns: [{ elementIndex: 0, widthFraction: 1 }] }], 'elements[1]'],
    [[{ columns: [{ elementIndex: 0, widthFraction: 1 }] }, { columns: [{ elementIndex: 0, widthFraction: 1 }] }], 'rows[1].columns[0].elementIndex'],
    [[{ columns: [{ elementIndex: 0, widthFraction: 0 }, { elementIndex: 1, widthFraction: 1 }] }], 'rows[0].columns[0].widthFraction'],
  ])('rejects %j naming %s', async (rows, path) => {
    const form = await createForm();
    await addElement(form.id, text('A'));
    await addElement(form.id, text('B'));
    const response = await api.request('PUT', `/v1/forms/${form.id}/layout`, { key: workspace.apiKey, body: { rows, attendeeRowsStart: 0 } });
    expect(response.status).toBe(422);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  it('refuses an attendeeRowsStart other than 0 on a standalone form (it has no attendee section), and takes its GET body back', async () => {
    // Prepare
    const form = await createForm();
    await addElement(form.id, text('A'));
    await addElement(form.id, text('B'));
    const rows = [{ columns: [{ elementIndex: 0, widthFraction: 1 }] }, { columns: [{ elementIndex: 1, widthFraction: 1 }] }];
    // Act
    const refused = await api.request('PUT', `/v1/forms/${form.id}/layout`, { key: workspace.apiKey, body: { rows, attendeeRowsStart: 1 } });
    const read = await getForm(form.id);
    const sentBack = await api.request('PUT', `/v1/forms/${form.id}/layout`, { key: workspace.apiKey, body: { rows: read.rows, attendeeRowsStart: read.attendeeRowsStart } });
    // Assess
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([{ path: 'attendeeRowsStart', message: 'must be 0: standalone forms have no attendee section' }]);
    expect(read.attendeeRowsStart).toBe(0);
    expect(sentBack.status).toBe(200);
  });

  it('rejects an attendee element placed before attendeeRowsStart', async () => {
    const form = await createForm({ type: 'order' });
    await addElement(form.id, text('Buyer'));
    await addElement(form.id, { ...text('Attendee'), askAllAttendees: true });
    const rows = [{ columns: [{ elementIndex: 1, widthFraction: 1 }] }, { columns: [{ elementIndex: 0, widthFraction: 1 }] }];
    const response = await api.request('PUT', `/v1/forms/${form.id}/layout`, { key: workspace.apiKey, body: { rows, attendeeRowsStart: 1 } });
    expect(response.status).toBe(422);
  });
});

describe('POST /v1/forms/{formId}/duplicate', () => {
  it('prefixes the copy with [Copy], makes it a draft and copies elements, layout and logic with new ids', async () => {
    // Prepare
    const form = await createForm({ name: 'Survey', status: 'active' });
    const source = await addElement(form.id, selectOne());
    const target = await addElement(form.id, text('Why?'));
    await api.request('POST', `/v1/forms/${form.id}/elements/${source.id}/logic-rules`, {
      key: workspace.apiKey, body: { revealedElementId: target.id, condition: { optionIndices: [1], operator: 'any_of' } },
    });
    // Act
    const response = await api.request('POST', `/v1/forms/${form.id}/duplicate`, { key: workspace.apiKey, body: {} });
    // Assess
    expect(response.status).toBe(201);
    const copy = response.body.data;
    const original = await getForm(form.id);
    expect(copy).toMatchObject({ name: '[Copy] Survey', status: 'draft', rows: original.rows, version: 1 });
    expect(copy.id).not.toBe(form.id);
    expect(copy.elements[0].logicGroups).toEqual(original.elements[0].logicGroups);
    expect(copy.elements.map((element: { id: string }) => element.id)).not.toContain(source.id);
  });

  it('keeps the copy of a 200-character name within 200 characters, so the copy can be sent back unchanged', async () => {
    // Prepare
    const form = await createForm({ name: 'N'.repeat(200) });
    // Act
    const response = await api.request('POST', `/v1/forms/${form.id}/duplicate`, { key: workspace.apiKey, body: {} });
    // Assess
    expect(response.status).toBe(201);
    const copy = response.body.data;
    expect(copy.name).toBe(`[Copy] ${'N'.repeat(193)}`);
    const roundTrip = await api.request('PATCH', `/v1/forms/${copy.id}`, { key: workspace.apiKey, body: { name: copy.name } });
    expect(roundTrip.status).toBe(200);
  });

  it('takes name and status overrides', async () => {
    const form = await createForm();
    const response = await api.request('POST', `/v1/forms/${form.id}/duplicate`, { key: workspace.apiKey, body: { name: 'Mine', status: 'active' } });
    expect(response.body.data).toMatchObject({ name: 'Mine', status: 'active' });
  });
});
