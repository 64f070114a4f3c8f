import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;
let other: TestWorkspace;
/** Contact properties of `workspace`, by purpose. */
const props: Record<string, string> = {};

let counter = 0;
function uniqueEmail(prefix = 'person'): string {
  counter += 1;
  return `${prefix}.${counter}@example.com`;
}

async function createProperty(key: string, body: Record<string, unknown>): Promise<string> {
  const response = await api.request('POST', '/v1/properties', { key, body });
  expect(response.status).toBe(201);
  return response.body.data.id;
}

beforeAll(async () => {
  api = await startApi();
  [workspace, other] = await Promise.all([api.newWorkspace('Contacts'), api.newWorkspace('Contacts elsewhere')]);
  props.size = await createProperty(workspace.apiKey, {
    type: 'Select One', name: 'Shirt size', objectType: 'contact', options: [{ value: 's', label: 'Small' }, { value: 'm', label: 'Medium' }],
  });
  props.age = await createProperty(workspace.apiKey, { type: 'Number', name: 'Age', objectType: 'contact' });
  props.vip = await createProperty(workspace.apiKey, { type: 'Yes/No', name: 'VIP', objectType: 'contact' });
  props.ticketNote = await createProperty(workspace.apiKey, { type: 'Text', name: 'Seat note', objectType: 'ticket' });
  props.foreign = await createProperty(other.apiKey, { type: 'Text', name: 'Foreign', objectType: 'contact' });
});
afterAll(async () => api.close());

async function create(body: Record<string, unknown>, key = workspace.apiKey) {
  return api.request('POST', '/v1/contacts', { key, body });
}

async function createOk(body: Record<string, unknown> = {}, key = workspace.apiKey) {
  const response = await create({ email: uniqueEmail(), ...body }, key);
  expect(response.status).toBe(201);
  return response.body.data;
}

async function patch(id: string, body: Record<string, unknown>, headers: Record<string, string> = {}, key = workspace.apiKey) {
  return api.request('PATCH', `/v1/contacts/${id}`, { key, body, headers });
}

describe('POST /v1/contacts', () => {
  it('creates a contact with every field and returns 201 {data}', async () => {
    // Prepare
    const email = uniqueEmail('ada');
    const body = {
      email, firstName: 'Ada', lastName: 'Lovelace', phone: '+44 20 7946 0000', status: 'opted-in',
      defaultPaymentMethod: 'pm_card_visa', properties: { [props.size as string]: 'm', [props.age as string]: 36 },
    };
    // Act
    const response = await create(body);
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(/^[a-f0-9]{24}$/), ...body, version: 1, createdAt: expect.any(String), updatedAt: expect.any(String),
    });
  });

  it('creates a contact from an email alone with empty properties', async () => {
    const response = await create({ email: uniqueEmail() });
    expect(response.status).toBe(201);
    expect(response.body.data.properties).toEqual({});
    expect(response.body.data).not.toHaveProperty('status');
  });

  it('answers 409 conflict for an email that differs only in case', async () => {
    // Prepare
    const email = uniqueEmail('Grace');
    await createOk({ email });
    // Act
    const response = await create({ email: email.toUpperCase() });
    // Assess
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('conflict');
  });

  it('lets exactly one of concurrent creates with the same email (in any case) win', async () => {
    const email = uniqueEmail('race');
    const responses = await Promise.all([email, email.toUpperCase(), email].map((spelling) => create({ email: spelling })));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('allows the same email in another workspace', async () => {
    const email = uniqueEmail();
    await createOk({ email });
    const response = await create({ email }, other.apiKey);
    expect(response.status).toBe(201);
  });

  it.each([
    ['a malformed email', { email: 'not-an-email' }, 'email'],
    ['a missing email', { email: undefined }, 'email'],
    ['an unknown status', { status: 'subscribed' }, 'status'],
    ['an unknown field', { nickname: 'Ada' }, expect.stringMatching(/^(nickname)?$/)],
  ])('answers 422 for %s', async (_label, overrides, path) => {
    const response = await create({ email: uniqueEmail(), ...overrides });
    expect(response.status).toBe(422);
    expect(response.body.error.details).toContainEqual(expect.objectContaining({ path }));
  });

  it.each([
    ['a value that is not an option', 'size', 'xl'],
    ['a string for a Number property', 'age', 'thirty'],
    ['a string for a Yes/No property', 'vip', 'yes'],
    ['a ticket property', 'ticketNote', 'aisle'],
    ['another workspace\'s property', 'foreign', 'x'],
  ])('answers 422 with path properties.<id> for %s', async (_label, which, value) => {
    // Prepare
    const id = props[which] as string;
    // Act
    const response = await create({ email: uniqueEmail(), properties: { [id]: value } });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details).toContainEqual(expect.objectContaining({ path: `properties.${id}` }));
  });

  it.each([9_007_199_254_740_992, 1e20, -1e30])('answers 422 with path properties.<id> for the Number value %d, beyond +/-Number.MAX_SAFE_INTEGER, and stores nothing', async (value) => {
    // Prepare
    const email = uniqueEmail('unsafe');
    const id = props.age as string;
    // Act
    const response = await create({ email, properties: { [id]: value } });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details).toEqual([{ path: `properties.${id}`, message: expect.stringMatching(/9007199254740991/) }]);
    const found = await api.request('GET', `/v1/contacts?email=${encodeURIComponent(email)}`, { key: workspace.apiKey });
    expect(found.body.data).toEqual([]);
  });

  it('answers 422 for a property id that does not exist', async () => {
    const response = await create({ email: uniqueEmail(), properties: { 'no-such-property': 1 } });
    expect(response.status).toBe(422);
    expect(response.body.error.details).toContainEqual(expect.objectContaining({ path: 'properties.no-such-property' }));
  });
});

describe('property values keyed "__proto__"', () => {
  it('are a 422 on create and on update, like any unknown property id, and change nothing', async () => {
    // Prepare
    const existing = await createOk({ firstName: 'Proto' });
    const email = uniqueEmail('proto');
    // Act
    const created = await api.request('POST', '/v1/contacts', {
      key: workspace.apiKey, raw: `{"email": "${email}", "properties": {"__proto__": "x"}}`, headers: { 'content-type': 'application/json' },
    });
    const updated = await api.request('PATCH', `/v1/contacts/${existing.id}`, {
      key: workspace.apiKey, raw: '{"firstName": "Changed", "properties": {"__proto__": {"x": 1}}}', headers: { 'content-type': 'application/json' },
    });
    const listed = await api.request('GET', `/v1/contacts?email=${encodeURIComponent(email)}`, { key: workspace.apiKey });
    const after = await api.request('GET', `/v1/contacts/${existing.id}`, { key: workspace.apiKey });
    // Assess
    for (const response of [created, updated]) {
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(response.body.error.details).toContainEqual(expect.objectContaining({ path: 'properties.__proto__' }));
    }
    expect(listed.body.data).toEqual([]);
    expect(after.body.data.firstName).toBe('Proto');
  });
});

describe('GET /v1/contacts/{id}', () => {
  it('returns the contact', async () => {
    const created = await createOk({ firstName: 'Alan' });
    const response = await api.request('GET', `/v1/contacts/${created.id}`, { key: workspace.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: created });
  });

  it('answers 404 for another workspace\'s contact', async () => {
    const foreign = await createOk({}, other.apiKey);
    const response = await api.request('GET', `/v1/contacts/${foreign.id}`, { key: workspace.apiKey });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it.each(['0123456789abcdef01234567', 'nope'])('answers 404 for the unknown id %s', async (id) => {
    const response = await api.request('GET', `/v1/contacts/${id}`, { key: workspace.apiKey });
    expect(response.status).toBe(404);
  });
});

describe('GET /v1/contacts', () => {
  let listing: TestWorkspace;
  const emails = ['carol@example.com', 'Alice@example.com', 'bob@example.com'];

  beforeAll(async () => {
    listing = await api.newWorkspace('Contact listing');
    for (const email of emails) await createOk({ email }, listing.apiKey);
  });

  async function list(query: string) {
    return api.request('GET', `/v1/contacts${query}`, { key: listing.apiKey });
  }

  it('lists in creation order with the generic list envelope', async () => {
    const response = await list('');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 0, limit: 20, total: 3, hasMore: false });
    expect(response.body.data.map((c: { email: string }) => c.email)).toEqual(emails);
  });

  it('sorts by email case-insensitively, both directions', async () => {
    const ascending = await list('?sort=email');
    const descending = await list('?sort=email&direction=desc');
    expect(ascending.body.data.map((c: { email: string }) => c.email)).toEqual(['Alice@example.com', 'bob@example.com', 'carol@example.com']);
    expect(descending.body.data.map((c: { email: string }) => c.email)).toEqual(['carol@example.com', 'bob@example.com', 'Alice@example.com']);
  });

  it('pages by email with hasMore', async () => {
    const first = await list('?sort=email&limit=2');
    const second = await list('?sort=email&limit=2&page=1');
    expect(first.body).toMatchObject({ total: 2, hasMore: true });
    expect(second.body).toMatchObject({ total: 1, hasMore: false });
    expect(second.body.data[0].email).toBe('carol@example.com');
  });

  it.each(['createdAt', 'email'])('answers an empty page at the deepest page number sorted by %s, and 400 naming cursor beyond 10,000 items', async (sort) => {
    const deepest = await list(`?sort=${sort}&page=99&limit=100`);
    const beyond = await list(`?sort=${sort}&page=9007199254740991&limit=100`);
    expect(deepest.status).toBe(200);
    expect(deepest.body).toMatchObject({ data: [], total: 0, hasMore: false, nextCursor: null });
    expect(beyond.status).toBe(400);
    expect(beyond.body.error).toMatchObject({ code: 'invalid_query', details: [{ path: 'page' }] });
    expect(beyond.body.error.details[0].message).toContain('cursor');
  });

  it('filters by exact email, case-insensitively', async () => {
    const found = await list('?email=ALICE%40example.com');
    const missing = await list('?email=nobody%40example.com');
    expect(found.body.data.map((c: { email: string }) => c.email)).toEqual(['Alice@example.com']);
    expect(missing.body).toMatchObject({ data: [], total: 0, hasMore: false });
  });

  it('does not find another workspace\'s contact by email', async () => {
    const response = await api.request('GET', '/v1/contacts?email=alice%40example.com', { key: other.apiKey });
    expect(response.body.data).toEqual([]);
  });

  it.each(['?limit=0', '?sort=firstName', '?status=opted-in'])('answers 400 invalid_query for %s', async (query) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_query');
  });
});

describe('PATCH /v1/contacts/{id}', () => {
  it('changes only the fields sent and removes fields sent as null', async () => {
    // Prepare
    const created = await createOk({ firstName: 'Ada', lastName: 'Byron', defaultPaymentMethod: 'pm_card_visa' });
    // Act
    const response = await patch(created.id, { lastName: 'Lovelace', defaultPaymentMethod: null, status: 'unsubscribed' });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', status: 'unsubscribed', version: 2 });
    expect(response.body.data).not.toHaveProperty('defaultPaymentMethod');
  });

  it('merges property values and removes a value sent as null', async () => {
    const created = await createOk({ properties: { [props.size as string]: 's', [props.age as string]: 40 } });
    const response = await patch(created.id, { properties: { [props.age as string]: null, [props.vip as string]: false } });
    expect(response.body.data.properties).toEqual({ [props.size as string]: 's', [props.vip as string]: false });
  });

  it('answers 422 with path properties.<id> for an invalid value and changes nothing', async () => {
    const created = await createOk();
    const response = await patch(created.id, { properties: { [props.size as string]: 'xxl' } });
    const after = await api.request('GET', `/v1/contacts/${created.id}`, { key: workspace.apiKey });
    expect(response.status).toBe(422);
    expect(response.body.error.details).toContainEqual(expect.objectContaining({ path: `properties.${props.size}` }));
    expect(after.body.data).toEqual(created);
  });

  it('answers 422 with path properties.<id> for a Number value beyond +/-Number.MAX_SAFE_INTEGER and changes nothing', async () => {
    // Prepare
    const created = await createOk({ properties: { [props.age as string]: 30 } });
    // Act
    const response = await patch(created.id, { properties: { [props.age as string]: -1e30 } });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: `properties.${props.age}`, message: expect.stringMatching(/9007199254740991/) }]);
    const after = await api.request('GET', `/v1/contacts/${created.id}`, { key: workspace.apiKey });
    expect(after.body.data).toEqual(created);
  });

  it('moves the email guard: the old email becomes free and the new one taken', async () => {
    // Prepare
    const oldEmail = uniqueEmail('old');
    const newEmail = uniqueEmail('new');
    const created = await createOk({ email: oldEmail });
    // Act
    const moved = await patch(created.id, { email: newEmail });
    const reuseOld = await create({ email: oldEmail.toUpperCase() });
    const reuseNew = await create({ email: newEmail });
    const byNewEmail = await api.request('GET', `/v1/contacts?email=${encodeURIComponent(newEmail)}`, { key: workspace.apiKey });
    // Assess
    expect(moved.status).toBe(200);
    expect(reuseOld.status).toBe(201);
    expect(reuseNew.status).toBe(409);
    expect(byNewEmail.body.data.map((c: { id: string }) => c.id)).toEqual([created.id]);
  });

  it('answers 409 conflict when changing to a taken email', async () => {
    const taken = await createOk();
    const created = await createOk();
    const response = await patch(created.id, { email: taken.email.toUpperCase() });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('conflict');
  });

  it('answers 409 conflict for a stale If-Match and 200 for the current one', async () => {
    const created = await createOk();
    await patch(created.id, { firstName: 'One' });
    const stale = await patch(created.id, { firstName: 'Two' }, { 'If-Match': '1' });
    const current = await patch(created.id, { firstName: 'Three' }, { 'If-Match': '2' });
    expect(stale.status).toBe(409);
    expect(current.body.data).toMatchObject({ firstName: 'Three', version: 3 });
  });

  it('keeps every one of concurrent PATCHes to different property values', async () => {
    // Prepare
    const created = await createOk();
    const updates = [{ [props.size as string]: 'm' }, { [props.age as string]: 51 }, { [props.vip as string]: true }];
    // Act
    const responses = await Promise.all([
      ...updates.map((properties) => patch(created.id, { properties })),
      patch(created.id, { firstName: 'Concurrent' }),
      patch(created.id, { phone: '+1 555 0100' }),
    ]);
    const final = await api.request('GET', `/v1/contacts/${created.id}`, { key: workspace.apiKey });
    // Assess
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(final.body.data).toMatchObject({
      firstName: 'Concurrent', phone: '+1 555 0100', version: 6,
      properties: { [props.size as string]: 'm', [props.age as string]: 51, [props.vip as string]: true },
    });
  });

  it('answers 404 for another workspace\'s contact', async () => {
    const foreign = await createOk({}, other.apiKey);
    const response = await patch(foreign.id, { firstName: 'Mallory' });
    expect(response.status).toBe(404);
  });
});
