import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEventsByIds, getProductsByIds } from '../../shared/events/events-repository.js';
import { createPartner } from '../../shared/partners/partners-repository.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Events');
  other = await api.newWorkspace('Events other');
});
afterAll(async () => api.close());

function eventBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Summer gala',
    start: '2030-06-01T18:00:00Z',
    end: '2030-06-01T23:00:00Z',
    products: [
      { name: 'VIP', price: 12_000, required: true },
      { name: 'General', price: 4_500, required: true },
      { name: 'Parking', price: 1_000 },
    ],
    ...overrides,
  };
}

async function createEvent(overrides: Record<string, unknown> = {}, key = workspace.apiKey) {
  const response = await api.request('POST', '/v1/events', { key, body: eventBody(overrides) });
  expect(response.status).toBe(201);
  return response.body.data;
}

describe('POST /v1/events', () => {
  it('creates a draft private event with minted product ids and the required-only price range', async () => {
    // Act
    const response = await api.request('POST', '/v1/events', { key: workspace.apiKey, body: eventBody() });
    // Assess
    expect(response.status).toBe(201);
    const event = response.body.data;
    expect(event).toMatchObject({ name: 'Summer gala', status: 'draft', visibility: 'private', type: 'event', minPrice: 4_500, maxPrice: 12_000, version: 1 });
    expect(event.id).toMatch(/^[a-f0-9]{24}$/);
    expect(event.products).toHaveLength(3);
    for (const product of event.products) expect(product.id).toMatch(/^[a-f0-9]{24}$/);
    expect(event.products[2]).toMatchObject({ name: 'Parking', required: false, currency: 'USD' });
  });

  it('reports 0/0 prices when no product is required', async () => {
    const event = await createEvent({ products: [{ name: 'Optional', price: 500 }] });
    expect(event).toMatchObject({ minPrice: 0, maxPrice: 0 });
  });

  it('returns the response variant of rich text with defaults filled in', async () => {
    // Prepare
    const descriptionBlocks = [
      { type: 'paragraph', content: [{ type: 'text', text: 'Hello', marks: [{ type: 'bold' }] }] },
      { type: 'orderedList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'smartValue', attrs: { key: 'event.name' } }] }] }] },
    ];
    // Act
    const event = await createEvent({ descriptionBlocks });
    // Assess
    expect(event.descriptionBlocks[0].attrs).toEqual({ textAlign: 'left' });
    expect(event.descriptionBlocks[1].attrs).toEqual({ start: 1 });
    expect(event.descriptionBlocks[1].content[0].content[0].attrs).toEqual({ textAlign: 'left' });
  });

  it('is 422 with details for an invalid rich-text tree', async () => {
    const response = await api.request('POST', '/v1/events', {
      key: workspace.apiKey,
      body: eventBody({ descriptionBlocks: [{ type: 'bulletList', content: [] }] }),
    });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details).toContainEqual({ path: 'descriptionBlocks[0].content', message: expect.any(String) });
  });

  it.each([
    ['a top-level field', { colour: 'gold' }, 'colour'],
    ['a product field', { products: [{ name: 'VIP', price: 100, colour: 'gold' }] }, 'products[0].colour'],
  ])('is 422 validation_failed for an unknown field (%s)', async (_case, overrides, path) => {
    // Act
    const response = await api.request('POST', '/v1/events', { key: workspace.apiKey, body: eventBody(overrides) });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details).toContainEqual({ path, message: 'unknown field "' + path.split('.').pop() + '"' });
  });

  it.each([
    ['metaData', '{"__proto__": "x", "city": "Montreal"}'],
    ['location', '{"__proto__": {"x": 1}, "venue": "Hall"}'],
  ])('is 422 for a %s key "__proto__" instead of dropping it silently', async (field, value) => {
    // Prepare
    const raw = `{"name": "Proto", "start": "2030-06-01T18:00:00Z", "end": "2030-06-01T23:00:00Z", "${field}": ${value}}`;
    // Act
    const response = await api.request('POST', '/v1/events', { key: workspace.apiKey, raw, headers: { 'content-type': 'application/json' } });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details).toContainEqual(expect.objectContaining({ path: `${field}.__proto__` }));
  });

  it.each([
    ['metaData', '{"constructor": "x"}', 'metaData.constructor'],
    ['location', '{"venue": {"constructor": {"name": "Set"}}}', 'location.venue.constructor'],
    ['customTerms', '{"constructor": {}}', 'customTerms.constructor'],
    ['contentBlocks', '[{"constructor": "x"}]', 'contentBlocks[0].constructor'],
  ])('is 422, not a failure to store, for a %s key "constructor" (the DynamoDB marshaller reads it as the type)', async (field, value, path) => {
    // Prepare
    const raw = `{"name": "Ctor", "start": "2030-06-01T18:00:00Z", "end": "2030-06-01T23:00:00Z", "${field}": ${value}}`;
    // Act
    const response = await api.request('POST', '/v1/events', { key: workspace.apiKey, raw, headers: { 'content-type': 'application/json' } });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details).toContainEqual({ path, message: 'the key "constructor" is not allowed' });
  });

  it('is 422 when end is before start', async () => {
    const response = await api.request('POST', '/v1/events', {
      key: workspace.apiKey,
      body: eventBody({ start: '2030-06-02T00:00:00Z', end: '2030-06-01T00:00:00Z' }),
    });
    expect(response.status).toBe(422);
    expect(response.body.error.details[0].path).toBe('end');
  });

  it('is 422 when the event would be too large to store', async () => {
    const huge = Array.from({ length: 40 }, () => ({ type: 'paragraph', content: [{ type: 'text', text: 'x'.repeat(10_000) }] }));
    const response = await api.request('POST', '/v1/events', { key: workspace.apiKey, body: eventBody({ descriptionBlocks: huge }) });
    expect(response.status).toBe(422);
    expect(response.body.error.message).toMatch(/too large/);
  });

  it('is 422 for non-string metaData values', async () => {
    const response = await api.request('POST', '/v1/events', { key: workspace.apiKey, body: eventBody({ metaData: { city: 3 } }) });
    expect(response.status).toBe(422);
  });

  it('is 400 invalid_json for a malformed body', async () => {
    const response = await api.request('POST', '/v1/events', { key: workspace.apiKey, raw: '{nope', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
  });

  it('is 401 without a key', async () => {
    const response = await api.request('POST', '/v1/events', { body: eventBody() });
    expect(response.status).toBe(401);
  });
});

describe('metaData bound and the one-transaction write', () => {
  const pairs = (count: number, prefix = 'k') => Object.fromEntries(Array.from({ length: count }, (_, index) => [`${prefix}${index}`, `v${index}`]));
  const products = (count: number, name = 'P') => Array.from({ length: count }, (_, index) => ({ name: `${name}${index}`, price: 100 + index, required: true }));
  // A listed event names a partner that exists (the code is checked on write).
  const code = `BOUND-${Date.now().toString(36)}`;
  beforeAll(() => createPartner({ referral_code: code, companyName: 'Bound' }));

  it('creates a listed event with 25 products and 20 metaData pairs in one write, and refuses a 21st pair', async () => {
    const created = await api.request('POST', '/v1/events', {
      key: workspace.apiKey, body: eventBody({ status: 'published', visibility: 'public', referral_code: code, products: products(25), metaData: pairs(20) }),
    });
    const tooMany = await api.request('POST', '/v1/events', { key: workspace.apiKey, body: eventBody({ metaData: pairs(21) }) });
    expect(created.status).toBe(201);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.details[0]).toMatchObject({ path: 'metaData', message: 'at most 20 keys' });
  });

  it('refuses with 422 an update that would rewrite more items than one transaction takes, and changes nothing', async () => {
    // Prepare
    const created = await createEvent({ status: 'published', visibility: 'public', referral_code: code, products: products(25), metaData: pairs(20) });
    // Act
    const response = await api.request('PATCH', `/v1/events/${created.id}`, {
      key: workspace.apiKey, body: { name: 'Renamed', start: '2030-05-01T18:00:00Z', products: products(25, 'Q'), metaData: pairs(20, 'j') },
    });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details[0].message).toContain('separate requests');
    const after = await api.request('GET', `/v1/events/${created.id}`, { key: workspace.apiKey });
    expect(after.body.data).toEqual(created);
  });
});

describe('GET /v1/events/{id}', () => {
  it('returns the event', async () => {
    const code = `SOMEONE-${Date.now().toString(36)}`;
    await createPartner({ referral_code: code, companyName: 'Someone' });
    const created = await createEvent({ metaData: { city: 'Montreal' }, referral_code: code });
    const response = await api.request('GET', `/v1/events/${created.id}`, { key: workspace.apiKey });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(created);
  });

  it("is 404 for another workspace's event and for a malformed id", async () => {
    const created = await createEvent();
    const foreign = await api.request('GET', `/v1/events/${created.id}`, { key: other.apiKey });
    const malformed = await api.request('GET', '/v1/events/not-an-id', { key: workspace.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect(malformed.status).toBe(404);
  });
});

describe('PATCH /v1/events/{id}', () => {
  it('keeps products sent with their id, mints new ones, drops the others and recomputes prices', async () => {
    // Prepare
    const created = await createEvent();
    const vip = created.products[0];
    // Act
    const response = await api.request('PATCH', `/v1/events/${created.id}`, {
      key: workspace.apiKey,
      body: { name: 'Winter gala', products: [{ ...vip, price: 20_000 }, { name: 'Student', price: 2_000, required: true }] },
    });
    // Assess
    expect(response.status).toBe(200);
    const event = response.body.data;
    expect(event).toMatchObject({ name: 'Winter gala', version: 2, minPrice: 2_000, maxPrice: 20_000 });
    expect(event.products[0].id).toBe(vip.id);
    expect(event.products).toHaveLength(2);
    const products = await getProductsByIds(workspace.workspaceId, created.products.map((product: { id: string }) => product.id));
    expect([...products.keys()]).toEqual([vip.id]);
    expect(products.get(vip.id)).toMatchObject({ eventId: created.id, price: 20_000, required: true, currency: 'USD' });
  });

  it('removes an optional field sent as null', async () => {
    // Prepare
    const created = await createEvent();
    await api.request('PATCH', `/v1/events/${created.id}`, { key: workspace.apiKey, body: { description: 'Plain text', tags: ['jazz'] } });
    // Act
    const response = await api.request('PATCH', `/v1/events/${created.id}`, { key: workspace.apiKey, body: { description: null } });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).not.toHaveProperty('description');
    expect(response.body.data.tags).toEqual(['jazz']);
    const fetched = await api.request('GET', `/v1/events/${created.id}`, { key: workspace.apiKey });
    expect(fetched.body.data).not.toHaveProperty('description');
  });

  it('is 422 for a product id that is not one of the event', async () => {
    const created = await createEvent();
    const response = await api.request('PATCH', `/v1/events/${created.id}`, {
      key: workspace.apiKey,
      body: { products: [{ id: 'aaaaaaaaaaaaaaaaaaaaaaaa', name: 'X', price: 1 }] },
    });
    expect(response.status).toBe(422);
    expect(response.body.error.details[0].path).toBe('products[0].id');
  });

  it('is 409 conflict with a stale If-Match and 200 with the current one', async () => {
    const created = await createEvent();
    const first = await api.request('PATCH', `/v1/events/${created.id}`, { key: workspace.apiKey, body: { name: 'A' }, headers: { 'If-Match': '1' } });
    const stale = await api.request('PATCH', `/v1/events/${created.id}`, { key: workspace.apiKey, body: { name: 'B' }, headers: { 'If-Match': '1' } });
    expect(first.status).toBe(200);
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('conflict');
  });

  it('loses no update when concurrent patches come without If-Match', async () => {
    const created = await createEvent();
    const responses = await Promise.all(['a', 'b', 'c'].map((key) =>
      api.request('PATCH', `/v1/events/${created.id}`, { key: workspace.apiKey, body: { metaData: { [key]: key } } })));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    const after = await api.request('GET', `/v1/events/${created.id}`, { key: workspace.apiKey });
    expect(after.body.data.version).toBe(4);
  });

  it('is 422 validation_failed for an unknown field or a changed computed field and changes nothing', async () => {
    // Prepare
    const created = await createEvent();
    // Act
    const unknown = await api.request('PATCH', `/v1/events/${created.id}`, { key: workspace.apiKey, body: { name: 'Renamed', colour: 'gold' } });
    const response = await api.request('PATCH', `/v1/events/${created.id}`, { key: workspace.apiKey, body: { name: 'Renamed', minPrice: created.minPrice + 1 } });
    // Assess
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toContainEqual({ path: 'colour', message: 'unknown field "colour"' });
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: 'minPrice', message: expect.stringMatching(/computed by the server/) }]);
    const after = await api.request('GET', `/v1/events/${created.id}`, { key: workspace.apiKey });
    expect(after.body.data).toMatchObject({ name: 'Summer gala', version: 1 });
  });

  it('is 422 when the update puts end before start', async () => {
    const created = await createEvent();
    const response = await api.request('PATCH', `/v1/events/${created.id}`, { key: workspace.apiKey, body: { end: '2000-01-01T00:00:00Z' } });
    expect(response.status).toBe(422);
  });

  it("is 404 for another workspace's event", async () => {
    const created = await createEvent();
    const response = await api.request('PATCH', `/v1/events/${created.id}`, { key: other.apiKey, body: { name: 'Hijack' } });
    expect(response.status).toBe(404);
  });
});

describe('GET /v1/events', () => {
  let listing: TestWorkspace;
  const names = ['Charlie', 'alpha', 'Bravo'];

  beforeAll(async () => {
    listing = await api.newWorkspace('Events listing');
    for (const [index, name] of names.entries()) {
      await createEvent({ name, start: `2030-0${3 - index}-01T00:00:00Z`, end: `2030-0${3 - index}-02T00:00:00Z` }, listing.apiKey);
    }
  });

  it('lists by creation time by default with the generic envelope', async () => {
    const response = await api.request('GET', '/v1/events', { key: listing.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 0, limit: 20, total: 3, hasMore: false });
    expect(response.body.data.map((event: { name: string }) => event.name)).toEqual(names);
  });

  it('sorts by name case-insensitively and by start descending', async () => {
    const byName = await api.request('GET', '/v1/events?sort=name', { key: listing.apiKey });
    const byStart = await api.request('GET', '/v1/events?sort=start&direction=desc', { key: listing.apiKey });
    expect(byName.body.data.map((event: { name: string }) => event.name)).toEqual(['alpha', 'Bravo', 'Charlie']);
    expect(byStart.body.data.map((event: { name: string }) => event.name)).toEqual(['Charlie', 'alpha', 'Bravo']);
  });

  it('keeps the sort copies in step with updates', async () => {
    const all = await api.request('GET', '/v1/events?sort=end', { key: listing.apiKey });
    const alpha = all.body.data.find((event: { name: string }) => event.name === 'alpha');
    await api.request('PATCH', `/v1/events/${alpha.id}`, { key: listing.apiKey, body: { end: '2031-01-01T00:00:00Z', name: 'Zulu' } });
    const byEnd = await api.request('GET', '/v1/events?sort=end', { key: listing.apiKey });
    const byName = await api.request('GET', '/v1/events?sort=name', { key: listing.apiKey });
    expect(byEnd.body.data.map((event: { name: string }) => event.name)).toEqual(['Bravo', 'Charlie', 'Zulu']);
    expect(byName.body.data.map((event: { name: string }) => event.name)).toEqual(['Bravo', 'Charlie', 'Zulu']);
  });

  it('paginates with hasMore and total = items on the page', async () => {
    const first = await api.request('GET', '/v1/events?limit=2', { key: listing.apiKey });
    const second = await api.request('GET', '/v1/events?limit=2&page=1', { key: listing.apiKey });
    expect(first.body).toMatchObject({ total: 2, hasMore: true, page: 0, limit: 2 });
    expect(second.body).toMatchObject({ total: 1, hasMore: false, page: 1 });
  });

  it('filters by status and visibility, in the requested order', async () => {
    // Prepare
    const filtering = await api.newWorkspace('Events filters');
    await createEvent({ name: 'Draft private' }, filtering.apiKey);
    await createEvent({ name: 'Live public', status: 'published', visibility: 'public' }, filtering.apiKey);
    await createEvent({ name: 'Live private', status: 'published' }, filtering.apiKey);
    // Act
    const published = await api.request('GET', '/v1/events?status=published&sort=name', { key: filtering.apiKey });
    const publicLive = await api.request('GET', '/v1/events?status=published&visibility=public', { key: filtering.apiKey });
    // Assess
    expect(published.body.data.map((event: { name: string }) => event.name)).toEqual(['Live private', 'Live public']);
    expect(publicLive.body.data.map((event: { name: string }) => event.name)).toEqual(['Live public']);
  });

  it('is 400 invalid_query for a bad limit, sort or direction', async () => {
    for (const query of ['limit=0', 'limit=101', 'sort=price', 'direction=up', 'page=-1', 'status=live', 'visibility=secret']) {
      const response = await api.request('GET', `/v1/events?${query}`, { key: listing.apiKey });
      expect(response.status, query).toBe(400);
      expect(response.body.error.code).toBe('invalid_query');
    }
  });

  it('answers an empty page past the end, and 400 naming cursor from 10,000 items deep', async () => {
    const empty = await api.request('GET', '/v1/events?page=99&limit=100', { key: listing.apiKey });
    const deep = await api.request('GET', '/v1/events?page=9007199254740991&limit=100', { key: listing.apiKey });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ data: [], total: 0, hasMore: false, nextCursor: null });
    expect(deep.status).toBe(400);
    expect(deep.body.error.details[0].message).toContain('cursor');
  });

  it("never lists another workspace's events", async () => {
    const response = await api.request('GET', '/v1/events', { key: other.apiKey });
    expect(response.body.data.every((event: { name: string }) => !names.includes(event.name))).toBe(true);
  });
});

describe('events repository for checkouts', () => {
  it('resolves events and products by id, scoped to the workspace', async () => {
    const created = await createEvent();
    const productIds = created.products.map((product: { id: string }) => product.id);
    const [events, foreignEvents, products] = await Promise.all([
      getEventsByIds(workspace.workspaceId, [created.id, created.id]),
      getEventsByIds(other.workspaceId, [created.id]),
      getProductsByIds(workspace.workspaceId, productIds),
    ]);
    expect(events.get(created.id)).toEqual(created);
    expect(foreignEvents.size).toBe(0);
    expect(products.size).toBe(3);
    expect(products.get(productIds[0])).toEqual({ productId: productIds[0], eventId: created.id, name: 'VIP', price: 12_000, currency: 'USD', required: true });
  });
});
