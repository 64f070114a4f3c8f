import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  [workspace, other] = await Promise.all([api.newWorkspace('Properties'), api.newWorkspace('Properties elsewhere')]);
});
afterAll(async () => api.close());

let counter = 0;
/** A unique name per call, so tests in this file never clash on the name guard by accident. */
function uniqueName(prefix = 'Property'): string {
  counter += 1;
  return `${prefix} ${counter}`;
}

function textProperty(overrides: Record<string, unknown> = {}) {
  return { type: 'Text', name: uniqueName(), objectType: 'contact', ...overrides };
}

function selectProperty(overrides: Record<string, unknown> = {}) {
  return {
    type: 'Select One',
    name: uniqueName('Size'),
    objectType: 'ticket',
    options: [{ value: 's', label: 'Small' }, { value: 'm', label: 'Medium' }],
    ...overrides,
  };
}

async function create(body: Record<string, unknown>, key = workspace.apiKey) {
  return api.request('POST', '/v1/properties', { key, body });
}

async function createOk(body: Record<string, unknown>, key = workspace.apiKey) {
  const response = await create(body, key);
  expect(response.status).toBe(201);
  return response.body.data;
}

async function patch(id: string, body: Record<string, unknown>, headers: Record<string, string> = {}, key = workspace.apiKey) {
  return api.request('PATCH', `/v1/properties/${id}`, { key, body, headers });
}

describe('POST /v1/properties', () => {
  it('creates an active property at version 1 and returns 201 {data}', async () => {
    // Prepare
    const body = selectProperty({ description: 'Shirt size' });
    // Act
    const response = await create(body);
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(/^[a-f0-9]{24}$/),
      type: 'Select One',
      name: body.name,
      description: 'Shirt size',
      status: 'active',
      objectType: 'ticket',
      options: body.options,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it.each(['Text', 'Multi-line Text', 'Number', 'Yes/No', 'Date', 'File', 'Email', 'Phone'])('creates a %s property without options', async (type) => {
    const response = await create(textProperty({ type }));
    expect(response.status).toBe(201);
    expect(response.body.data).not.toHaveProperty('options');
  });

  it('answers 409 conflict for a name that differs only in case within the same objectType', async () => {
    // Prepare
    const name = uniqueName('Dietary Needs');
    await createOk(textProperty({ name }));
    // Act
    const response = await create(textProperty({ name: name.toUpperCase() }));
    // Assess
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('conflict');
  });

  it('lets exactly one of concurrent creates with the same name (in any case) win', async () => {
    // Prepare
    const name = uniqueName('Race');
    const spellings = [name, name.toUpperCase(), name.toLowerCase(), name, name.toUpperCase()];
    // Act
    const responses = await Promise.all(spellings.map((spelling) => create(textProperty({ name: spelling }))));
    // Assess
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('allows the same name on another objectType', async () => {
    const name = uniqueName('Notes');
    await createOk(textProperty({ name, objectType: 'contact' }));
    const response = await create(textProperty({ name, objectType: 'order' }));
    expect(response.status).toBe(201);
  });

  it('allows the same name in another workspace', async () => {
    const name = uniqueName('Shared name');
    await createOk(textProperty({ name }));
    const response = await create(textProperty({ name }), other.apiKey);
    expect(response.status).toBe(201);
  });

  it.each([
    ['a select type without options', { type: 'Select Multiple', options: undefined }, 'options'],
    ['a select type with no options', { type: 'Select One', options: [] }, 'options'],
    ['options on a Text property', { type: 'Text', options: [{ value: 'a', label: 'A' }] }, 'options'],
    ['a repeated option value', { type: 'Select One', options: [{ value: 'a', label: 'A' }, { value: 'a', label: 'B' }] }, 'options[1].value'],
    ['an unknown type', { type: 'Colour' }, 'type'],
    ['an unknown objectType', { objectType: 'venue' }, 'objectType'],
    ['an empty name', { name: '  ' }, 'name'],
    ['an unknown field', { colour: 'red' }, expect.stringMatching(/^(colour)?$/)],
  ])('answers 422 for %s with the offending path', async (_label, overrides, path) => {
    // Act
    const response = await create(textProperty(overrides));
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details).toContainEqual(expect.objectContaining({ path }));
  });

  it('answers 400 invalid_json for a body that is not JSON', async () => {
    const response = await api.request('POST', '/v1/properties', { key: workspace.apiKey, raw: '{nope', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
  });

  it('answers 401 without a key', async () => {
    const response = await api.request('POST', '/v1/properties', { body: textProperty() });
    expect(response.status).toBe(401);
  });
});

describe('GET /v1/properties/{id}', () => {
  it('returns the property', async () => {
    const created = await createOk(selectProperty());
    const response = await api.request('GET', `/v1/properties/${created.id}`, { key: workspace.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: created });
  });

  it('answers 404 for another workspace\'s property', async () => {
    const foreign = await createOk(textProperty(), other.apiKey);
    const response = await api.request('GET', `/v1/properties/${foreign.id}`, { key: workspace.apiKey });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it.each(['0123456789abcdef01234567', 'not-an-id'])('answers 404 for the unknown id %s', async (id) => {
    const response = await api.request('GET', `/v1/properties/${id}`, { key: workspace.apiKey });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });
});

describe('GET /v1/properties', () => {
  let listing: TestWorkspace;
  const names = ['banana', 'Apple', 'cherry'];

  beforeAll(async () => {
    listing = await api.newWorkspace('Property listing');
    for (const name of names) await createOk(textProperty({ name, objectType: 'order' }), listing.apiKey);
    const archived = await createOk(textProperty({ name: 'Date of birth', type: 'Date', objectType: 'contact' }), listing.apiKey);
    await patch(archived.id, { status: 'archived' }, {}, listing.apiKey);
  });

  async function list(query: string) {
    return api.request('GET', `/v1/properties${query}`, { key: listing.apiKey });
  }

  // Ids are random past their second: creation order is createdAt order, not id order.
  it('lists in creation order by default with the generic list envelope', async () => {
    const response = await list('');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 0, limit: 20, total: 4, hasMore: false });
    expect(response.body.data.map((p: { name: string }) => p.name)).toEqual([...names, 'Date of birth']);
  });

  it('sorts by name case-insensitively, both directions', async () => {
    const ascending = await list('?sort=name&objectType=order');
    const descending = await list('?sort=name&direction=desc&objectType=order');
    expect(ascending.body.data.map((p: { name: string }) => p.name)).toEqual(['Apple', 'banana', 'cherry']);
    expect(descending.body.data.map((p: { name: string }) => p.name)).toEqual(['cherry', 'banana', 'Apple']);
  });

  it('sorts by name across objectTypes, honouring the status filter and paging', async () => {
    const all = await list('?sort=name');
    const archived = await list('?sort=name&status=archived');
    const secondPage = await list('?sort=name&status=active&limit=2&page=1');
    const firstPageDesc = await list('?sort=name&direction=desc&limit=3');
    expect(all.body.data.map((p: { name: string }) => p.name)).toEqual(['Apple', 'banana', 'cherry', 'Date of birth']);
    expect(archived.body.data.map((p: { name: string }) => p.name)).toEqual(['Date of birth']);
    expect(secondPage.body).toMatchObject({ total: 1, hasMore: false });
    expect(secondPage.body.data[0].name).toBe('cherry');
    expect(firstPageDesc.body).toMatchObject({ total: 3, hasMore: true });
    expect(firstPageDesc.body.data.map((p: { name: string }) => p.name)).toEqual(['Date of birth', 'cherry', 'banana']);
  });

  it('filters by objectType and status', async () => {
    const contacts = await list('?objectType=contact');
    const archived = await list('?status=archived');
    const active = await list('?status=active');
    expect(contacts.body.data.map((p: { name: string }) => p.name)).toEqual(['Date of birth']);
    expect(archived.body.data.map((p: { name: string }) => p.name)).toEqual(['Date of birth']);
    expect(active.body.total).toBe(3);
  });

  it('pages with page and limit and reports hasMore', async () => {
    const first = await list('?limit=2&sort=createdAt&direction=desc');
    const second = await list('?limit=2&page=1&sort=createdAt&direction=desc');
    const listed = [...first.body.data, ...second.body.data].map((p: { name: string }) => p.name);
    expect(first.body).toMatchObject({ page: 0, limit: 2, total: 2, hasMore: true });
    expect(second.body).toMatchObject({ page: 1, limit: 2, total: 2, hasMore: false });
    expect(listed).toEqual(['Date of birth', ...[...names].reverse()]);
  });

  it.each(['createdAt', 'name', 'updatedAt'])('answers an empty page at the deepest page number sorted by %s, and 400 naming cursor beyond 10,000 items', async (sort) => {
    const deepest = await list(`?sort=${sort}&page=99&limit=100`);
    const beyond = await list(`?sort=${sort}&page=9007199254740991&limit=100`);
    expect(deepest.status).toBe(200);
    expect(deepest.body).toMatchObject({ data: [], total: 0, hasMore: false, nextCursor: null });
    expect(beyond.status).toBe(400);
    expect(beyond.body.error).toMatchObject({ code: 'invalid_query', details: [{ path: 'page' }] });
    expect(beyond.body.error.details[0].message).toContain('cursor');
  });

  it('sorts by updatedAt', async () => {
    const response = await list('?sort=updatedAt&direction=desc');
    expect(response.body.data[0].name).toBe('Date of birth');
  });

  it.each(['?limit=0', '?limit=101', '?page=-1', '?sort=type', '?direction=up', '?objectType=venue', '?colour=red'])('answers 400 invalid_query for %s', async (query) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_query');
  });

  it('never lists another workspace\'s properties', async () => {
    const response = await api.request('GET', '/v1/properties?limit=100', { key: other.apiKey });
    expect(response.body.data.map((p: { name: string }) => p.name)).not.toContain('Apple');
  });
});

describe('PATCH /v1/properties/{id}', () => {
  it('renames and bumps the version', async () => {
    // Prepare
    const created = await createOk(textProperty());
    const name = uniqueName('Renamed');
    // Act
    const response = await patch(created.id, { name });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: created.id, name, version: 2 });
    expect(response.body.data.updatedAt >= created.updatedAt).toBe(true);
  });

  it('moves the name guard on rename: the old name becomes free and the new one taken', async () => {
    // Prepare
    const oldName = uniqueName('Old');
    const newName = uniqueName('New');
    const created = await createOk(textProperty({ name: oldName }));
    // Act
    await patch(created.id, { name: newName });
    const reuseOld = await create(textProperty({ name: oldName.toLowerCase() }));
    const reuseNew = await create(textProperty({ name: newName.toUpperCase() }));
    // Assess
    expect(reuseOld.status).toBe(201);
    expect(reuseNew.status).toBe(409);
    expect(reuseNew.body.error.code).toBe('conflict');
  });

  it('lists a renamed property under its new name when sorting by name', async () => {
    const renaming = await api.newWorkspace('Rename listing');
    const first = await createOk(textProperty({ name: 'Alpha' }), renaming.apiKey);
    await createOk(textProperty({ name: 'Middle' }), renaming.apiKey);
    await patch(first.id, { name: 'Zulu' }, {}, renaming.apiKey);
    const response = await api.request('GET', '/v1/properties?sort=name', { key: renaming.apiKey });
    expect(response.body.data.map((p: { name: string }) => p.name)).toEqual(['Middle', 'Zulu']);
  });

  it('answers 409 conflict when renaming onto a taken name, and changes nothing', async () => {
    const taken = await createOk(textProperty());
    const created = await createOk(textProperty());
    const response = await patch(created.id, { name: taken.name.toUpperCase() });
    const after = await api.request('GET', `/v1/properties/${created.id}`, { key: workspace.apiKey });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('conflict');
    expect(after.body.data).toEqual(created);
  });

  it('allows a rename that only changes the case', async () => {
    const created = await createOk(textProperty({ name: uniqueName('lower case') }));
    const response = await patch(created.id, { name: created.name.toUpperCase() });
    expect(response.status).toBe(200);
    expect(response.body.data.name).toBe(created.name.toUpperCase());
  });

  it('archives and restores a property', async () => {
    const created = await createOk(textProperty());
    const archived = await patch(created.id, { status: 'archived' });
    const restored = await patch(created.id, { status: 'active' });
    expect(archived.body.data).toMatchObject({ status: 'archived', version: 2 });
    expect(restored.body.data).toMatchObject({ status: 'active', version: 3 });
  });

  it('removes the description with null', async () => {
    const created = await createOk(textProperty({ description: 'temporary' }));
    const response = await patch(created.id, { description: null });
    expect(response.status).toBe(200);
    expect(response.body.data).not.toHaveProperty('description');
  });

  it('replaces the options of a select property', async () => {
    const created = await createOk(selectProperty());
    const options = [{ value: 's', label: 'Small (S)' }, { value: 'xl', label: 'Extra large' }];
    const response = await patch(created.id, { options });
    expect(response.body.data.options).toEqual(options);
  });

  it.each([
    ['type present', { type: 'Number' }, 'type'],
    ['objectType present', { objectType: 'order' }, 'objectType'],
    ['options on a Text property', { options: [{ value: 'a', label: 'A' }] }, 'options'],
    ['an unknown status', { status: 'deleted' }, 'status'],
  ])('answers 422 for %s', async (_label, body, path) => {
    const created = await createOk(textProperty());
    const response = await patch(created.id, body);
    expect(response.status).toBe(422);
    expect(response.body.error.details).toContainEqual(expect.objectContaining({ path }));
  });

  it('answers 422 for empty options on a select property', async () => {
    const created = await createOk(selectProperty());
    const response = await patch(created.id, { options: [] });
    expect(response.status).toBe(422);
    expect(response.body.error.details).toContainEqual(expect.objectContaining({ path: 'options' }));
  });

  it('answers 409 conflict for a stale If-Match and 200 for the current one', async () => {
    // Prepare
    const created = await createOk(textProperty());
    await patch(created.id, { description: 'first' });
    // Act
    const stale = await patch(created.id, { description: 'second' }, { 'If-Match': '1' });
    const current = await patch(created.id, { description: 'third' }, { 'If-Match': '"2"' });
    // Assess
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('conflict');
    expect(current.status).toBe(200);
    expect(current.body.data).toMatchObject({ description: 'third', version: 3 });
  });

  it('answers 422 for an If-Match that is not a version', async () => {
    const created = await createOk(textProperty());
    const response = await patch(created.id, { description: 'x' }, { 'If-Match': 'abc' });
    expect(response.status).toBe(422);
  });

  it('keeps every one of concurrent PATCHes without If-Match', async () => {
    // Prepare
    const created = await createOk(textProperty());
    const writers = 8;
    // Act
    const responses = await Promise.all(Array.from({ length: writers }, (_, i) => patch(created.id, { description: `writer ${i}` })));
    const final = await api.request('GET', `/v1/properties/${created.id}`, { key: workspace.apiKey });
    // Assess
    expect(responses.map((r) => r.status)).toEqual(Array(writers).fill(200));
    const versions = responses.map((r) => r.body.data.version).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: writers }, (_, i) => i + 2));
    const last = responses.find((r) => r.body.data.version === writers + 1);
    expect(final.body.data).toMatchObject({ version: writers + 1, description: last?.body.data.description });
  });

  it('answers 404 for another workspace\'s property', async () => {
    const foreign = await createOk(textProperty(), other.apiKey);
    const response = await patch(foreign.id, { name: uniqueName() });
    const untouched = await api.request('GET', `/v1/properties/${foreign.id}`, { key: other.apiKey });
    expect(response.status).toBe(404);
    expect(untouched.body.data.version).toBe(1);
  });
});

describe('/v1/properties routing', () => {
  it('answers 405 to DELETE: properties cannot be deleted, only archived', async () => {
    const created = await createOk(textProperty());
    const response = await api.request('DELETE', `/v1/properties/${created.id}`, { key: workspace.apiKey });
    expect(response.status).toBe(405);
  });

  it('answers with and without the trailing slash', async () => {
    const created = await createOk(textProperty());
    const list = await api.request('GET', '/v1/properties/', { key: workspace.apiKey });
    const one = await api.request('GET', `/v1/properties/${created.id}/`, { key: workspace.apiKey });
    expect(list.status).toBe(200);
    expect(one.body.data.id).toBe(created.id);
  });
});
