import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids.js';
import { solidPng } from '../../shared/images/sample-images.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Response reads');
  other = await api.newWorkspace('Someone else');
});
afterAll(async () => api.close());

type Json = Record<string, unknown>;

async function call(method: string, path: string, body?: unknown, key = workspace.apiKey) {
  const response = await api.request(method, path, { key, ...(body === undefined ? {} : { body }) });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
  return response.body?.data;
}

const createForm = (overrides: Json = {}, key = workspace.apiKey) =>
  call('POST', '/v1/forms', { name: 'Signup', type: 'standalone', status: 'active', ...overrides }, key);
const addElement = (formId: string, element: Json, key = workspace.apiKey) => call('POST', `/v1/forms/${formId}/elements`, element, key);
const submit = (formId: string, answers: Json) => api.request('POST', `/forms/${formId}/responses`, { body: { answers } });
const itemsRead = (header: string | null) => Number(/items=(\d+)/.exec(header ?? '')?.[1]);

/** An active form identifying contacts by email, with a free-text question. */
async function contactForm(key = workspace.apiKey) {
  const form = await createForm({}, key);
  const email = await addElement(form.id, { type: 'Email', prompt: 'Email', required: true, contactField: 'email' }, key);
  const note = await addElement(form.id, { type: 'Text', prompt: 'Note' }, key);
  return { form, email, note };
}

describe('GET /forms/{formId}', () => {
  it('serves an active form without a key, with CORS, and without workspace, status or property internals', async () => {
    // Prepare
    const tier = await call('POST', '/v1/properties', {
      type: 'Select One', name: `Tier ${newId()}`, objectType: 'contact', options: [{ value: 'gold', label: 'Gold tier' }, { value: 'silver', label: 'Silver tier' }],
    });
    const form = await createForm({ submitButtonText: 'Join', nameHidden: true });
    const email = await addElement(form.id, { type: 'Email', prompt: 'Email', required: true, contactField: 'email' });
    const linked = await addElement(form.id, { type: 'Select One', prompt: 'Tier', propertyId: tier.id, dropdown: true });
    const own = await addElement(form.id, { type: 'Select One', prompt: 'Size', options: ['S', 'M'] });
    await call('POST', `/v1/forms/${form.id}/elements/${own.id}/logic-rules`, { revealedElementId: linked.id, condition: { optionIndices: [1], operator: 'any_of' } });
    // A banner the host uploaded as an image asset: its URL is on the public form too.
    const uploaded = await api.request('POST', '/v1/assets/images?filename=banner.png', { key: workspace.apiKey, raw: solidPng(4, 2), headers: { 'content-type': 'image/png' } });
    await addElement(form.id, { type: 'Static Image', prompt: 'Banner', imageUrl: uploaded.body.data.url });
    // Act
    const response = await api.request('GET', `/forms/${form.id}`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const publicForm = response.body.data;
    expect(Object.keys(publicForm).sort()).toEqual(['attendeeRowsStart', 'elements', 'id', 'name', 'nameHidden', 'rows', 'submitButtonText', 'submitButtonWidth', 'type']);
    expect(publicForm).toMatchObject({ id: form.id, name: 'Signup', nameHidden: true, type: 'standalone', submitButtonText: 'Join', attendeeRowsStart: 0 });
    expect(publicForm.rows).toHaveLength(4);
    expect(publicForm.elements[3]).toMatchObject({ type: 'Static Image', imageUrl: uploaded.body.data.url });
    expect(publicForm.elements[0]).toEqual({ id: email.id, type: 'Email', prompt: 'Email', required: true, contactField: 'email' });
    expect(publicForm.elements[1]).toEqual({ id: linked.id, type: 'Select One', prompt: 'Tier', dropdown: true, options: ['gold', 'silver'], optionLabels: ['Gold tier', 'Silver tier'] });
    expect(publicForm.elements[2]).toMatchObject({ options: ['S', 'M'], logicGroups: [{ revealedElementIndex: 1, optionIndices: [1], operator: 'any_of' }] });
    expect(response.text).not.toContain(workspace.workspaceId);
    expect(response.text).not.toContain(tier.id);
  });

  it('keeps cart-limited elements hidden without naming the host\'s products', async () => {
    // Prepare
    const form = await createForm({ type: 'order' });
    const productId = newId();
    await addElement(form.id, { type: 'Text', prompt: 'Parking plate', forEventItems: [{ type: 'eventProduct', eventId: newId(), productId }] });
    // Act
    const response = await api.request('GET', `/forms/${form.id}`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.elements[0].forEventItems).toEqual([]);
    expect(response.text).not.toContain(productId);
  });

  it('is a 404 for a draft, an archived, an unknown form and a malformed id, with CORS', async () => {
    // Prepare
    const draft = await createForm({ status: 'draft' });
    const archived = await createForm({ status: 'archived' });
    // Act
    const responses = await Promise.all([draft.id, archived.id, newId(), 'not-an-id'].map((id) => api.request('GET', `/forms/${id}`)));
    // Assess
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('answers the CORS preflight with the path\'s method', async () => {
    // Prepare
    const form = await createForm();
    // Act
    const response = await api.request('OPTIONS', `/forms/${form.id}`);
    // Assess
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
  });
});

describe('GET /v1/forms/{formId}/responses', () => {
  it('lists the form\'s responses newest first, page by page', async () => {
    // Prepare
    const { form, email, note } = await contactForm();
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three']) {
      ids.push((await submit(form.id, { [email.id]: `${text}@example.com`, [note.id]: text })).body.data.id);
    }
    // Act
    const first = await api.request('GET', `/v1/forms/${form.id}/responses?limit=2`, { key: workspace.apiKey });
    const second = await api.request('GET', `/v1/forms/${form.id}/responses?limit=2&page=1`, { key: workspace.apiKey });
    const oldestFirst = await api.request('GET', `/v1/forms/${form.id}/responses?direction=asc`, { key: workspace.apiKey });
    // Assess
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 0, limit: 2, total: 2, hasMore: true });
    expect(first.body.data.map((response: Json) => response.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.data[0]).toEqual({
      id: ids[2], formId: form.id, contactId: expect.stringMatching(/^[a-f0-9]{24}$/),
      answers: { [email.id]: 'three@example.com', [note.id]: 'three' }, createdAt: expect.stringMatching(/Z$/),
    });
    expect(second.body).toMatchObject({ page: 1, total: 1, hasMore: false });
    expect(second.body.data[0].id).toBe(ids[0]);
    expect(oldestFirst.body.data.map((response: Json) => response.id)).toEqual(ids);
  });

  it('filters by contactId with a Query on that contact\'s responses, whatever the other contacts sent', async () => {
    // Prepare
    const { form, email } = await contactForm();
    const mine: string[] = [];
    for (let i = 0; i < 2; i += 1) mine.push((await submit(form.id, { [email.id]: 'ada@example.com' })).body.data.id);
    for (let i = 0; i < 6; i += 1) await submit(form.id, { [email.id]: `other${i}@example.com` });
    const contactId = (await api.request('GET', `/v1/forms/${form.id}/responses/${mine[0]}`, { key: workspace.apiKey })).body.data.contactId;
    // Act
    const response = await api.request('GET', `/v1/forms/${form.id}/responses?contactId=${contactId}`, { key: workspace.apiKey });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((item: Json) => item.id)).toEqual([mine[1], mine[0]]);
    expect(response.body.data.every((item: Json) => item.contactId === contactId)).toBe(true);
    // Form pointer (1) + the contact's two projection items (2) + the page's two responses (2): none of the six others.
    expect(itemsRead(response.headers.get('x-db-stats'))).toBeLessThanOrEqual(5);
  });

  it('answers an empty page for a contact with no response to this form', async () => {
    // Prepare
    const { form } = await contactForm();
    // Act
    const response = await api.request('GET', `/v1/forms/${form.id}/responses?contactId=${newId()}`, { key: workspace.apiKey });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [], page: 0, limit: 20, total: 0, hasMore: false, nextCursor: null });
  });

  it('is a 404 for another workspace\'s form and for an unknown form', async () => {
    // Prepare
    const { form, email } = await contactForm(other.apiKey);
    await submit(form.id, { [email.id]: 'theirs@example.com' });
    // Act
    const foreign = await api.request('GET', `/v1/forms/${form.id}/responses`, { key: workspace.apiKey });
    const unknown = await api.request('GET', `/v1/forms/${newId()}/responses`, { key: workspace.apiKey });
    // Assess
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect(foreign.text).not.toContain('theirs@example.com');
    expect(unknown.status).toBe(404);
  });

  it('is a 400 invalid_query for a malformed contactId, limit or unknown parameter', async () => {
    // Prepare
    const { form } = await contactForm();
    // Act
    const responses = await Promise.all(['contactId=nope', 'limit=0', 'sort=name', 'colour=red'].map((query) =>
      api.request('GET', `/v1/forms/${form.id}/responses?${query}`, { key: workspace.apiKey })));
    // Assess
    for (const response of responses) {
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_query');
    }
  });

  it('needs an API key', async () => {
    // Prepare
    const { form } = await contactForm();
    // Act
    const response = await api.request('GET', `/v1/forms/${form.id}/responses`);
    // Assess
    expect(response.status).toBe(401);
  });
});

describe('GET /v1/forms/{formId}/responses/{responseId}', () => {
  it('returns one response as submitted, attendees included', async () => {
    // Prepare
    const form = await createForm({ type: 'order' });
    const seat = await addElement(form.id, { type: 'Text', prompt: 'Seat', askAllAttendees: true });
    const submitted = await api.request('POST', `/forms/${form.id}/responses`, { body: { answers: {}, attendees: [{ [seat.id]: 'A1' }, { [seat.id]: 'A2' }] } });
    // Act
    const response = await api.request('GET', `/v1/forms/${form.id}/responses/${submitted.body.data.id}`, { key: workspace.apiKey });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: submitted.body.data.id, formId: form.id, answers: {}, attendees: [{ [seat.id]: 'A1' }, { [seat.id]: 'A2' }], createdAt: expect.any(String),
    });
  });

  it('is a 404 for another workspace\'s response, a response of another form, and malformed ids', async () => {
    // Prepare
    const theirs = await contactForm(other.apiKey);
    const theirResponse = (await submit(theirs.form.id, { [theirs.email.id]: 'x@example.com' })).body.data.id;
    const mine = await contactForm();
    const myResponse = (await submit(mine.form.id, { [mine.email.id]: 'y@example.com' })).body.data.id;
    const myOtherForm = await contactForm();
    // Act
    const responses = await Promise.all([
      `/v1/forms/${theirs.form.id}/responses/${theirResponse}`,
      `/v1/forms/${myOtherForm.form.id}/responses/${myResponse}`,
      `/v1/forms/${mine.form.id}/responses/not-an-id`,
    ].map((path) => api.request('GET', path, { key: workspace.apiKey })));
    // Assess
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
  });
});
