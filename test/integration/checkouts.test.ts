import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solidPng } from '../../shared/images/sample-images.js';
import { createApiKey } from '../../shared/workspaces/workspaces-repository.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let host: TestWorkspace;
let other: TestWorkspace;

interface SeededEvent {
  id: string;
  name: string;
  productIds: string[];
}

async function createEvent(workspace: TestWorkspace, name: string, productNames: string[], image?: string): Promise<SeededEvent> {
  const response = await api.request('POST', '/v1/events', {
    key: workspace.apiKey,
    body: {
      name,
      start: '2030-06-01T18:00:00Z',
      end: '2030-06-01T23:00:00Z',
      products: productNames.map((product, index) => ({ name: product, price: 1_000 * (index + 1), required: index === 0 })),
      ...(image ? { image: [image] } : {}),
    },
  });
  expect(response.status).toBe(201);
  const event = response.body.data as { id: string; name: string; products: { id: string }[] };
  return { id: event.id, name: event.name, productIds: event.products.map((product) => product.id) };
}

async function createForm(workspace: TestWorkspace, name: string): Promise<string> {
  const response = await api.request('POST', '/v1/forms', { key: workspace.apiKey, body: { name, type: 'order' } });
  expect(response.status).toBe(201);
  return response.body.data.id as string;
}

function createCheckout(workspace: TestWorkspace, body: Record<string, unknown>) {
  return api.request('POST', '/v1/checkouts', { key: workspace.apiKey, body });
}

let concert: SeededEvent;
let gala: SeededEvent;
let formId: string;
let foreignEvent: SeededEvent;

beforeAll(async () => {
  api = await startApi();
  [host, other] = await Promise.all([api.newWorkspace('Checkouts host'), api.newWorkspace('Checkouts other')]);
  concert = await createEvent(host, 'Concert', ['General', 'VIP', 'Parking'], 'https://cdn.example.com/concert.png');
  gala = await createEvent(host, 'Gala', ['Seat']);
  formId = await createForm(host, 'Buyer details');
  foreignEvent = await createEvent(other, 'Foreign', ['Foreign seat']);
});
afterAll(async () => api.close());

describe('POST /v1/checkouts', () => {
  it('creates a checkout with defaults and computed fields', async () => {
    // Act
    const response = await createCheckout(host, {
      name: 'Concert checkout',
      description: 'Tickets for the summer concert',
      eventId: concert.id,
      orderFormId: formId,
      products: [
        {
          productId: concert.productIds[0],
          quantity: 2,
          dependents: [{ productId: concert.productIds[2], priceMode: 'paid', price: 500, minPerOrder: 0, maxPerOrder: 2, customFees: [{ name: 'Service', rate: 3.5 }] }],
        },
        { productId: concert.productIds[1], visibility: 'hidden' },
      ],
    });
    // Assess
    expect(response.status).toBe(201);
    const checkout = response.body.data;
    expect(checkout).toMatchObject({
      id: expect.stringMatching(/^[a-f0-9]{24}$/),
      ownerId: host.workspaceId,
      name: 'Concert checkout',
      status: 'open',
      visibility: 'private',
      productsCount: 2,
      eventName: 'Concert',
      eventImage: 'https://cdn.example.com/concert.png',
      formName: 'Buyer details',
      isEventSet: true,
      version: 1,
    });
    expect(checkout.products[1]).toEqual({ productId: concert.productIds[1], visibility: 'hidden', dependents: [] });
    expect(checkout.products[0].visibility).toBe('visible');
    expect(checkout.products[0].dependents[0].customFees[0].id).toMatch(/^[a-f0-9]{24}$/);
    expect(checkout.createdAt).toMatch(/Z$/);
    expect(checkout.updatedAt).toBe(checkout.createdAt);
  });

  it('turns an event image that is an image asset id into the asset\'s download URL', async () => {
    // Prepare
    const png = solidPng(2, 2);
    const asset = await api.request('POST', '/v1/assets/images?filename=cover.png', { key: host.apiKey, raw: png, headers: { 'content-type': 'image/png' } });
    const event = await createEvent(host, 'Pictured', ['Seat'], asset.body.data.id);
    // Act
    const response = await createCheckout(host, { name: 'Pictured', eventId: event.id });
    // Assess
    expect(response.body.data.eventImage).toBe(asset.body.data.url);
    expect(Buffer.from(await (await fetch(response.body.data.eventImage)).arrayBuffer()).equals(png)).toBe(true);
  });

  it('leaves eventImage out when the event\'s first image is an id that is no image asset of the workspace', async () => {
    // Prepare: an id never uploaded here (it could be another workspace's asset): never shown as if it were a URL.
    const event = await createEvent(host, 'Unpictured', ['Seat'], '0123456789abcdef01234567');
    // Act
    const response = await createCheckout(host, { name: 'Unpictured', eventId: event.id });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data.eventName).toBe('Unpictured');
    expect(response.body.data).not.toHaveProperty('eventImage');
  });

  it('creates a minimal checkout whose required fields are all present', async () => {
    const response = await createCheckout(host, { name: 'Bare' });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      id: expect.any(String), ownerId: host.workspaceId, name: 'Bare', status: 'open', visibility: 'private', products: [],
      createdAt: expect.any(String), updatedAt: expect.any(String), productsCount: 0, isEventSet: false, version: 1,
    });
  });

  it('is 422 for a product of another workspace, naming the offending path', async () => {
    const response = await createCheckout(host, { name: 'Bad', products: [{ productId: foreignEvent.productIds[0] }] });
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: 'products[0].productId', message: expect.any(String) }]);
  });

  it('is 422 for an unknown dependent product', async () => {
    const response = await createCheckout(host, {
      name: 'Bad dependent',
      products: [{ productId: gala.productIds[0], dependents: [{ productId: '0123456789abcdef01234567' }] }],
    });
    expect(response.status).toBe(422);
    expect(response.body.error.details[0].path).toBe('products[0].dependents[0].productId');
  });

  it('is 422 for another workspace\'s event and an unknown form', async () => {
    const response = await createCheckout(host, { name: 'Bad refs', eventId: foreignEvent.id, orderFormId: '0123456789abcdef01234567' });
    expect(response.status).toBe(422);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['eventId', 'orderFormId']);
  });

  it('is 422 when orderFormId is a standalone form', async () => {
    // Prepare
    const standalone = await api.request('POST', '/v1/forms', { key: host.apiKey, body: { name: 'Newsletter', type: 'standalone' } });
    // Act
    const response = await createCheckout(host, { name: 'Wrong form', orderFormId: standalone.body.data.id });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: 'orderFormId', message: expect.stringContaining('order form') }]);
  });

  it('is 422 when a product belongs to another event than eventId', async () => {
    const response = await createCheckout(host, { name: 'Mixed', eventId: concert.id, products: [{ productId: gala.productIds[0] }] });
    expect(response.status).toBe(422);
    expect(response.body.error.details[0]).toEqual({ path: 'products[0].productId', message: expect.stringMatching(/another event/) });
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'x', status: 'archived' }, 'status'],
    [{ name: 'x', unknownField: true }, 'unknownField'],
    [{ name: 'x', products: [{ productId: 'not-hex' }] }, 'products[0].productId'],
    [{ name: 'x', availableFrom: '2030-01-02T00:00:00Z', availableTo: '2030-01-01T00:00:00Z' }, 'availableTo'],
    [{ name: 'x', availabilityTimezone: 'Mars/Olympus' }, 'availabilityTimezone'],
    [{ name: 'x', redirectUrl: 'javascript:alert(1)' }, 'redirectUrl'],
    [{ name: 'x', payByInvoice: { memo: 'no enabled flag' } }, 'payByInvoice.enabled'],
  ])('is 422 for the invalid body %j', async (body, path) => {
    const response = await createCheckout(host, body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details[0].path).toBe(path);
  });

  it('is 422 for a paid dependent without a price and a duplicate product', async () => {
    const response = await createCheckout(host, {
      name: 'x',
      products: [
        { productId: concert.productIds[0], dependents: [{ productId: concert.productIds[1], priceMode: 'paid' }] },
        { productId: concert.productIds[0] },
      ],
    });
    expect(response.status).toBe(422);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['products[0].dependents[0].price', 'products[1].productId']);
  });

  it('accepts and keeps a field that has no effect in the dependent\'s price mode (pwycMin when paid, price when free)', async () => {
    // Prepare
    const dependents = [
      { productId: concert.productIds[1], priceMode: 'paid', price: 100, pwycMin: 50 },
      { productId: concert.productIds[2], priceMode: 'free', price: 300, pwycMin: 20 },
    ];
    // Act
    const response = await createCheckout(host, { name: 'Modes', products: [{ productId: concert.productIds[0], dependents }] });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data.products[0].dependents).toEqual(dependents.map((dependent) => ({ ...dependent, customFees: [] })));
  });

  it('is 403 for a read-only key on every write', async () => {
    const { apiKey } = await createApiKey(host.workspaceId, 'read_only');
    const created = await createCheckout(host, { name: 'Read only target' });
    const id = created.body.data.id;
    expect((await api.request('POST', '/v1/checkouts', { key: apiKey, body: { name: 'x' } })).status).toBe(403);
    expect((await api.request('PATCH', `/v1/checkouts/${id}`, { key: apiKey, body: { name: 'x' } })).status).toBe(403);
    expect((await api.request('DELETE', `/v1/checkouts/${id}`, { key: apiKey })).status).toBe(403);
    expect((await api.request('GET', `/v1/checkouts/${id}`, { key: apiKey })).status).toBe(200);
  });

  it('creates once for a repeated Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': `checkout-${Date.now()}` };
    const first = await api.request('POST', '/v1/checkouts', { key: host.apiKey, body: { name: 'Once' }, headers });
    const again = await api.request('POST', '/v1/checkouts', { key: host.apiKey, body: { name: 'Once' }, headers });
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
  });

  it('is 415 for a body that is not JSON', async () => {
    const response = await api.request('POST', '/v1/checkouts', { key: host.apiKey, raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(response.status).toBe(415);
  });

  it('is 415 for JSON declared in a charset other than UTF-8, which it would otherwise read as UTF-8 and mangle', async () => {
    const latin1 = Buffer.from('{"name":"Caf\u00e9"}', 'latin1');
    const refused = await api.request('POST', '/v1/checkouts', { key: host.apiKey, raw: latin1, headers: { 'content-type': 'application/json; charset=iso-8859-1' } });
    expect(refused.status).toBe(415);
    expect(refused.body.error).toMatchObject({ code: 'unsupported_media_type', message: expect.stringContaining('UTF-8') });
    for (const contentType of ['application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'application/merge-patch+json']) {
      const accepted = await api.request('POST', '/v1/checkouts', { key: host.apiKey, raw: JSON.stringify({ name: 'Café' }), headers: { 'content-type': contentType } });
      expect(accepted.status, contentType).toBe(201);
      expect(accepted.body.data.name).toBe('Café');
    }
  });

  it('is 400 invalid_json for a body that is not JSON', async () => {
    const response = await api.request('POST', '/v1/checkouts', { key: host.apiKey, raw: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
  });
});

describe('GET /v1/checkouts/{id}', () => {
  it('wraps the checkout as {checkout}', async () => {
    const created = await createCheckout(host, { name: 'Wrapped', eventId: gala.id, products: [{ productId: gala.productIds[0] }] });
    const response = await api.request('GET', `/v1/checkouts/${created.body.data.id}`, { key: host.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ checkout: created.body.data });
  });

  it('is 404 for another workspace\'s checkout, an unknown id and a malformed id', async () => {
    const created = await createCheckout(host, { name: 'Private' });
    const foreign = await api.request('GET', `/v1/checkouts/${created.body.data.id}`, { key: other.apiKey });
    const unknown = await api.request('GET', '/v1/checkouts/0123456789abcdef01234567', { key: host.apiKey });
    const malformed = await api.request('GET', '/v1/checkouts/ABC', { key: host.apiKey });
    expect([foreign.status, unknown.status, malformed.status]).toEqual([404, 404, 404]);
    expect(foreign.body.error.code).toBe('not_found');
  });
});

describe('PATCH /v1/checkouts/{id}', () => {
  it('changes only the given fields, clears null ones and bumps the version', async () => {
    // Prepare
    const created = await createCheckout(host, { name: 'Before', description: 'old', timeslotId: 'slot-1', eventId: gala.id });
    const id = created.body.data.id;
    // Act
    const response = await api.request('PATCH', `/v1/checkouts/${id}`, { key: host.apiKey, body: { name: 'After', description: null, status: 'closed' } });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ name: 'After', status: 'closed', timeslotId: 'slot-1', eventName: 'Gala', version: 2 });
    expect(response.body.data).not.toHaveProperty('description');
    expect(Date.parse(response.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.data.updatedAt));
  });

  it('takes back a GET body whose price mode was switched, keeping the values the new mode ignores', async () => {
    // Prepare
    const created = await createCheckout(host, {
      name: 'Switch', products: [{ productId: concert.productIds[0], dependents: [{ productId: concert.productIds[1], priceMode: 'pwyc', price: 900, pwycMin: 300 }] }],
    });
    const { products } = created.body.data;
    products[0].dependents[0].priceMode = 'free';
    // Act
    const response = await api.request('PATCH', `/v1/checkouts/${created.body.data.id}`, { key: host.apiKey, body: { products } });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.products[0].dependents[0]).toMatchObject({ priceMode: 'free', price: 900, pwycMin: 300 });
  });

  it('is 409 conflict with a stale If-Match and succeeds with the current one', async () => {
    const created = await createCheckout(host, { name: 'Versioned' });
    const id = created.body.data.id;
    await api.request('PATCH', `/v1/checkouts/${id}`, { key: host.apiKey, body: { name: 'v2' } });
    const stale = await api.request('PATCH', `/v1/checkouts/${id}`, { key: host.apiKey, body: { name: 'v3' }, headers: { 'If-Match': '1' } });
    const current = await api.request('PATCH', `/v1/checkouts/${id}`, { key: host.apiKey, body: { name: 'v3' }, headers: { 'If-Match': '2' } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('conflict');
    expect(current.status).toBe(200);
    expect(current.body.data.version).toBe(3);
  });

  it('loses no update when concurrent PATCHes come without If-Match', async () => {
    const created = await createCheckout(host, { name: 'Busy' });
    const id = created.body.data.id;
    const responses = await Promise.all([
      api.request('PATCH', `/v1/checkouts/${id}`, { key: host.apiKey, body: { description: 'from A' } }),
      api.request('PATCH', `/v1/checkouts/${id}`, { key: host.apiKey, body: { timeslotId: 'from-B' } }),
      api.request('PATCH', `/v1/checkouts/${id}`, { key: host.apiKey, body: { payButtonLabel: 'Pay C' } }),
    ]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    const final = await api.request('GET', `/v1/checkouts/${id}`, { key: host.apiKey });
    expect(final.body.checkout).toMatchObject({ description: 'from A', timeslotId: 'from-B', payButtonLabel: 'Pay C', version: 4 });
  });

  it('validates references of a changed product list', async () => {
    const created = await createCheckout(host, { name: 'Refs' });
    const response = await api.request('PATCH', `/v1/checkouts/${created.body.data.id}`, { key: host.apiKey, body: { products: [{ productId: foreignEvent.productIds[0] }] } });
    expect(response.status).toBe(422);
    expect(response.body.error.details[0].path).toBe('products[0].productId');
  });

  it('is 404 for another workspace\'s checkout', async () => {
    const created = await createCheckout(host, { name: 'Mine' });
    const response = await api.request('PATCH', `/v1/checkouts/${created.body.data.id}`, { key: other.apiKey, body: { name: 'Stolen' } });
    expect(response.status).toBe(404);
  });
});

describe('DELETE /v1/checkouts/{id}', () => {
  it('soft-deletes: 204, then GET is 404, the list omits it and a second DELETE is 404', async () => {
    // Prepare
    const workspace = await api.newWorkspace('Delete');
    const kept = await createCheckout(workspace, { name: 'Kept' });
    const doomed = await createCheckout(workspace, { name: 'Doomed' });
    // Act
    const deleted = await api.request('DELETE', `/v1/checkouts/${doomed.body.data.id}`, { key: workspace.apiKey });
    // Assess
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await api.request('GET', `/v1/checkouts/${doomed.body.data.id}`, { key: workspace.apiKey })).status).toBe(404);
    const list = await api.request('GET', '/v1/checkouts', { key: workspace.apiKey });
    expect(list.body.data.map((checkout: { id: string }) => checkout.id)).toEqual([kept.body.data.id]);
    expect((await api.request('DELETE', `/v1/checkouts/${doomed.body.data.id}`, { key: workspace.apiKey })).status).toBe(404);
    expect((await api.request('PATCH', `/v1/checkouts/${doomed.body.data.id}`, { key: workspace.apiKey, body: { name: 'Back' } })).status).toBe(404);
  });

  it('is 404 for another workspace\'s checkout and leaves it in place', async () => {
    const created = await createCheckout(host, { name: 'Not yours' });
    const response = await api.request('DELETE', `/v1/checkouts/${created.body.data.id}`, { key: other.apiKey });
    expect(response.status).toBe(404);
    expect((await api.request('GET', `/v1/checkouts/${created.body.data.id}`, { key: host.apiKey })).status).toBe(200);
  });

  it('is 409 with a stale If-Match', async () => {
    const created = await createCheckout(host, { name: 'Guarded' });
    await api.request('PATCH', `/v1/checkouts/${created.body.data.id}`, { key: host.apiKey, body: { name: 'Guarded 2' } });
    const response = await api.request('DELETE', `/v1/checkouts/${created.body.data.id}`, { key: host.apiKey, headers: { 'If-Match': '1' } });
    expect(response.status).toBe(409);
  });
});
