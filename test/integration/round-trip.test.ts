import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

/*
 * The round-trip rule (API.md "Round trips and references"), resource by resource: what a GET returns,
 * edited in one field, is accepted back whole by the matching update; a GET body is accepted by the
 * create as a copy; a changed read-only or immutable field is still refused, and a stale `version` is 409.
 */

let api: TestApi;
let workspace: TestWorkspace;
let previousDelay: string | undefined;

beforeAll(async () => {
  // Payments settle at once, so the payout copy has money to move.
  previousDelay = process.env.SETTLEMENT_DELAY_SECONDS;
  process.env.SETTLEMENT_DELAY_SECONDS = '0';
  api = await startApi();
  workspace = await api.newWorkspace('Round trips');
});
afterAll(async () => {
  if (previousDelay === undefined) delete process.env.SETTLEMENT_DELAY_SECONDS;
  else process.env.SETTLEMENT_DELAY_SECONDS = previousDelay;
  await api.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(method: string, path: string, body?: unknown, expected = method === 'POST' ? 201 : 200): Promise<Json> {
  const response = await api.request(method, path, { key: workspace.apiKey, ...(body === undefined ? {} : { body }) });
  if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
  return response.body;
}
const send = (method: string, path: string, body: unknown) => api.request(method, path, { key: workspace.apiKey, body });
const unique = (label: string) => `${label} ${Math.random().toString(36).slice(2, 8)}`;

/** One resource: how to make one, read it, update it, create one, and one field to edit. */
interface Resource {
  name: string;
  make: () => Promise<string>;
  /** GET path of the object, and where the object sits in the GET body. */
  path: (id: string) => string;
  unwrap?: 'data' | 'checkout';
  update: { method: 'PATCH'; path: (id: string) => string };
  create: string;
  /** The edit, and the fields to change so that a copy does not collide with a unique original (name, email). */
  edit: Json;
  copy?: (read: Json) => Json;
  immutable?: Json;
}

async function makeEvent(extra: Json = {}): Promise<Json> {
  return (await call('POST', '/v1/events', {
    name: unique('Gala'), start: '2030-06-01T18:00:00+02:00', end: '2030-06-01T23:00:00Z',
    products: [{ name: 'VIP', price: 12_000, required: true }, { name: 'Parking', price: 1_000 }],
    descriptionBlocks: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hello', marks: [{ type: 'bold' }] }] }],
    location: { venue: 'Hall' }, tags: ['music'], metaData: { city: 'Montreal' },
    ...extra,
  })).data;
}

async function makeContact(): Promise<Json> {
  return (await call('POST', '/v1/contacts', { email: `${unique('rt').replace(' ', '.')}@example.com`, firstName: 'Ada', status: 'opted-in', properties: {} })).data;
}

const resources: Resource[] = [
  {
    name: 'form',
    make: async () => {
      const property = (await call('POST', '/v1/properties', { type: 'Select One', name: unique('Size'), objectType: 'contact', options: [{ value: 's', label: 'S' }, { value: 'm', label: 'M' }] })).data;
      const form = (await call('POST', '/v1/forms', { name: unique('Signup'), type: 'standalone' })).data;
      // A form that sets contact properties needs the contact's email.
      await call('POST', `/v1/forms/${form.id}/elements`, { type: 'Email', prompt: 'Email', required: true, contactField: 'email' });
      const select = (await call('POST', `/v1/forms/${form.id}/elements`, { type: 'Select One', prompt: 'Size', propertyId: property.id })).data;
      const text = (await call('POST', `/v1/forms/${form.id}/elements`, { type: 'Text', prompt: 'Why?' })).data;
      await call('POST', `/v1/forms/${form.id}/elements/${select.id}/logic-rules`, { revealedElementId: text.id, condition: { optionIndices: [0], operator: 'any_of' } }, 201);
      return form.id;
    },
    path: (id) => `/v1/forms/${id}`,
    update: { method: 'PATCH', path: (id) => `/v1/forms/${id}` },
    create: '/v1/forms',
    edit: { name: 'Renamed form', submitButtonText: 'Go' },
    immutable: { type: 'order' },
  },
  {
    name: 'property',
    make: async () => (await call('POST', '/v1/properties', { type: 'Select One', name: unique('Colour'), objectType: 'contact', options: [{ value: 'r', label: 'Red' }] })).data.id,
    path: (id) => `/v1/properties/${id}`,
    update: { method: 'PATCH', path: (id) => `/v1/properties/${id}` },
    create: '/v1/properties',
    edit: { description: 'Favourite colour' },
    copy: (read) => ({ ...read, name: unique('Colour copy') }),
    immutable: { objectType: 'order' },
  },
  {
    name: 'contact',
    make: async () => (await makeContact()).id,
    path: (id) => `/v1/contacts/${id}`,
    update: { method: 'PATCH', path: (id) => `/v1/contacts/${id}` },
    create: '/v1/contacts',
    edit: { lastName: 'Lovelace' },
    copy: (read) => ({ ...read, email: `${unique('copy').replace(' ', '.')}@example.com` }),
  },
  {
    name: 'event',
    make: async () => (await makeEvent()).id,
    path: (id) => `/v1/events/${id}`,
    update: { method: 'PATCH', path: (id) => `/v1/events/${id}` },
    create: '/v1/events',
    edit: { name: 'Renamed gala' },
  },
  {
    name: 'invoice',
    make: async () => {
      const contact = await makeContact();
      const event = await makeEvent();
      return (await call('POST', '/v1/invoices', {
        customerId: contact.id, currency: 'USD', notes: 'Thanks',
        lineItems: [{ description: 'Ticket', quantity: 2, unitAmount: 1_500, taxAmount: 195, eventId: event.id, eventStart: '2030-06-01T18:00:00+02:00' }],
      })).data.id;
    },
    path: (id) => `/v1/invoices/${id}`,
    update: { method: 'PATCH', path: (id) => `/v1/invoices/${id}` },
    create: '/v1/invoices',
    edit: { notes: 'Thank you!' },
  },
  {
    name: 'checkout',
    make: async () => {
      const event = await makeEvent();
      const form = (await call('POST', '/v1/forms', { name: unique('Order'), type: 'order' })).data;
      return (await call('POST', '/v1/checkouts', {
        name: unique('Tickets'), eventId: event.id, orderFormId: form.id, availableFrom: '2030-05-01T09:00:00+02:00',
        products: [{ productId: event.products[0].id, dependents: [{ productId: event.products[1].id, priceMode: 'paid', price: 500, customFees: [{ name: 'Service', rate: 3 }] }] }],
      })).data.id;
    },
    path: (id) => `/v1/checkouts/${id}`,
    unwrap: 'checkout',
    update: { method: 'PATCH', path: (id) => `/v1/checkouts/${id}` },
    create: '/v1/checkouts',
    edit: { name: 'Renamed checkout' },
  },
  {
    name: 'webhook endpoint',
    make: async () => (await call('POST', '/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks', events: ['invoice.paid'], description: 'Mine' })).data.id,
    path: (id) => `/v1/webhook-endpoints/${id}`,
    update: { method: 'PATCH', path: (id) => `/v1/webhook-endpoints/${id}` },
    create: '/v1/webhook-endpoints',
    edit: { description: 'Renamed endpoint' },
  },
];

describe.each(resources)('the $name', (resource) => {
  const read = async (id: string) => (await call('GET', resource.path(id)))[resource.unwrap ?? 'data'] as Json;

  it('takes its GET body back with one field edited', async () => {
    // Prepare
    const id = await resource.make();
    const before = await read(id);
    // Act
    const response = await send(resource.update.method, resource.update.path(id), { ...before, ...resource.edit });
    // Assess
    expect(response.status, response.text).toBe(200);
    const after = await read(id);
    const { updatedAt: _before, version: beforeVersion, ...unchanged } = before;
    expect(after).toMatchObject({ ...unchanged, ...resource.edit });
    if (beforeVersion !== undefined) expect(after.version).toBe(beforeVersion + 1);
  });

  it('takes its GET body back unchanged without writing anything: the version and updatedAt stay', async () => {
    // Prepare
    const id = await resource.make();
    const before = await read(id);
    // Act
    const response = await send(resource.update.method, resource.update.path(id), before);
    // Assess
    expect(response.status, response.text).toBe(200);
    expect(await read(id)).toEqual(before);
  });

  it('takes its GET body as a create: a copy with its own id', async () => {
    // Prepare
    const id = await resource.make();
    const original = await read(id);
    // Act
    const response = await send('POST', resource.create, resource.copy?.(original) ?? original);
    // Assess
    expect(response.status, response.text).toBe(201);
    const copy = response.body.data as Json;
    expect(copy.id).not.toBe(original.id);
    if (original.version !== undefined) expect(copy.version).toBe(1);
  });

  it('refuses a changed read-only field with 422 on its path, and a copy read before another write with 409', async () => {
    // Prepare
    const id = await resource.make();
    const before = await read(id);
    // Act
    const changedId = await send(resource.update.method, resource.update.path(id), { ...before, id: '6740f1a2c3d4e5f601234567' });
    const changedImmutable = resource.immutable ? await send(resource.update.method, resource.update.path(id), { ...before, ...resource.immutable }) : undefined;
    // Assess
    expect(changedId.status).toBe(422);
    expect(changedId.body.error.details).toEqual([expect.objectContaining({ path: 'id' })]);
    if (changedImmutable) {
      expect(changedImmutable.status).toBe(422);
      expect(changedImmutable.body.error.details).toEqual([expect.objectContaining({ path: Object.keys(resource.immutable as Json)[0] })]);
    }
    // Another client's write, then the GET body read before it: stale by its version, and by its
    // updatedAt when sent without a version (webhook endpoints have none).
    await call(resource.update.method, resource.update.path(id), resource.edit);
    const stale = await send(resource.update.method, resource.update.path(id), { ...before, ...resource.edit, id: before.id });
    const { version: _version, ...withoutVersion } = before;
    const staleWithoutVersion = await send(resource.update.method, resource.update.path(id), { ...withoutVersion, ...resource.edit, id: before.id });
    for (const refused of [stale, staleWithoutVersion]) {
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body.error.code).toBe('conflict');
    }
    expect(await read(id)).toMatchObject({ ...resource.edit });
  });
});

describe('form elements', () => {
  it('take an element as the form\'s GET returns it (id, type and propertyData included) back with one field edited', async () => {
    // Prepare
    const form = await call('GET', `/v1/forms/${await resources[0]!.make()}`);
    const [, select] = form.data.elements as Json[];
    expect(select).toHaveProperty('propertyData');
    // Act
    const response = await send('PATCH', `/v1/forms/${form.data.id}/elements/${select!.id}`, { ...select, prompt: 'Shirt size' });
    const otherId = await send('PATCH', `/v1/forms/${form.data.id}/elements/${select!.id}`, { ...select, id: form.data.elements[2].id });
    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toEqual({ ...select, prompt: 'Shirt size' });
    expect(otherId.status).toBe(422);
    expect(otherId.body.error.details).toEqual([expect.objectContaining({ path: 'id' })]);
  });

  it('are copied with a form created from its GET body: new ids, same layout and logic', async () => {
    // Prepare
    const original = (await call('GET', `/v1/forms/${await resources[0]!.make()}`)).data;
    // Act
    const copy = (await call('POST', '/v1/forms', { ...original, name: 'Copy of signup' })).data;
    // Assess
    expect(copy.elements.map((element: Json) => element.id)).not.toContain(original.elements[0].id);
    expect(copy.elements.map(({ id: _id, ...element }: Json) => element)).toEqual(original.elements.map(({ id: _id, ...element }: Json) => element));
    expect(copy).toMatchObject({ rows: original.rows, attendeeRowsStart: original.attendeeRowsStart, type: original.type, isEventForm: original.isEventForm });
  });
});

describe('form elements across form types', () => {
  it('go from an order form\'s GET body into a standalone form: the order-only fields, which do nothing there, are dropped', async () => {
    // Prepare: order forms answer askAllAttendees on every element, and this one is limited to cart items
    const order = await call('POST', '/v1/forms', { name: unique('Tickets'), type: 'order' });
    const added = await call('POST', `/v1/forms/${order.data.id}/elements`, { type: 'Text', prompt: 'Dietary needs', forEventItems: [] });
    const standalone = await call('POST', '/v1/forms', { name: unique('Signup'), type: 'standalone' });
    const { id: _id, ...element } = added.data;
    expect(element).toMatchObject({ askAllAttendees: false, forEventItems: [] });
    // Act
    const copied = await send('POST', `/v1/forms/${standalone.data.id}/elements`, element);
    const patched = await send('PATCH', `/v1/forms/${standalone.data.id}/elements/${copied.body.data?.id}`, { askAllAttendees: true });
    const created = await send('POST', '/v1/forms', { name: unique('Signup copy'), type: 'standalone', elements: [element] });
    // Assess
    expect(copied.status, copied.text).toBe(201);
    expect(copied.body.data).toEqual({ id: expect.any(String), type: 'Text', prompt: 'Dietary needs' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toEqual(copied.body.data);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.elements[0]).not.toHaveProperty('askAllAttendees');
    expect(created.body.data.elements[0]).not.toHaveProperty('forEventItems');
  });
});

describe('payouts', () => {
  it('take a payout\'s GET body as a create: another payout of the same amount', async () => {
    // Prepare: a paid invoice makes 9,900 available (1 % platform fee on a manual payment)
    const contact = await makeContact();
    const invoice = (await call('POST', '/v1/invoices', { customerId: contact.id, currency: 'USD', lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: 10_000 }] })).data;
    await call('POST', `/v1/invoices/${invoice.id}/finalize`, undefined, 200);
    await call('POST', `/v1/invoices/${invoice.id}/payments`, { amount: 10_000, idempotencyKey: 'round-trip' });
    const first = (await call('POST', '/v1/payouts', { currency: 'USD', amount: 1_000 })).data;
    const read = (await call('GET', `/v1/payouts/${first.id}`)).data;
    // Act
    const copy = await send('POST', '/v1/payouts', read);
    // Assess
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body.data).toMatchObject({ currency: 'USD', amount: 1_000, status: 'paid' });
    expect(copy.body.data.id).not.toBe(first.id);
  });
});

describe('contacts', () => {
  it('take their GET body back after a Select option was renamed: the old value is kept, a new one is still checked', async () => {
    // Prepare: a contact holds "s", then the option's value becomes "small" (instances keep "s": spec)
    const property = (await call('POST', '/v1/properties', { type: 'Select One', name: unique('Size'), objectType: 'contact', options: [{ value: 's', label: 'S' }, { value: 'm', label: 'M' }] })).data;
    const contact = (await call('POST', '/v1/contacts', { email: `${unique('sel').replace(' ', '.')}@example.com`, properties: { [property.id]: 's' } })).data;
    await call('PATCH', `/v1/properties/${property.id}`, { options: [{ value: 'small', label: 'S' }, { value: 'm', label: 'M' }] });
    const before = (await call('GET', `/v1/contacts/${contact.id}`)).data;
    // Act
    const roundTrip = await send('PATCH', `/v1/contacts/${contact.id}`, { ...before, firstName: 'Grace' });
    const changed = await send('PATCH', `/v1/contacts/${contact.id}`, { properties: { [property.id]: 'x' } });
    const renamed = await send('PATCH', `/v1/contacts/${contact.id}`, { properties: { [property.id]: 'small' } });
    // Assess
    expect(roundTrip.status, roundTrip.text).toBe(200);
    expect(roundTrip.body.data).toMatchObject({ firstName: 'Grace', properties: { [property.id]: 's' } });
    expect(changed.status).toBe(422);
    expect(changed.body.error.details).toEqual([expect.objectContaining({ path: `properties.${property.id}` })]);
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data.properties[property.id]).toBe('small');
  });
});

describe('checkouts', () => {
  /** A checkout of an event's two products (the second with the first as its dependent), and both read. */
  async function makeCheckoutOfTwo(): Promise<{ event: Json; checkout: Json }> {
    const event = await makeEvent();
    const [vip, parking] = event.products as Json[];
    const created = (await call('POST', '/v1/checkouts', {
      name: unique('Tickets'), eventId: event.id,
      products: [{ productId: vip!.id }, { productId: parking!.id, dependents: [{ productId: vip!.id, priceMode: 'free' }] }],
    })).data;
    return { event, checkout: (await call('GET', `/v1/checkouts/${created.id}`)).checkout };
  }

  it('take their GET body back after the event dropped a product they list; a newly added unknown product is still refused', async () => {
    // Prepare: the event keeps VIP only; the checkout still lists Parking
    const { event, checkout } = await makeCheckoutOfTwo();
    await call('PATCH', `/v1/events/${event.id}`, { products: [event.products[0]] });
    const before = (await call('GET', `/v1/checkouts/${checkout.id}`)).checkout;
    // Act
    const roundTrip = await send('PATCH', `/v1/checkouts/${checkout.id}`, { ...before, name: 'Renamed checkout' });
    const added = await send('PATCH', `/v1/checkouts/${checkout.id}`, { products: [...before.products, { productId: '6740f1a2c3d4e5f601234567' }] });
    // Assess
    expect(roundTrip.status, roundTrip.text).toBe(200);
    expect(roundTrip.body.data).toMatchObject({ name: 'Renamed checkout', products: before.products });
    expect(added.status).toBe(422);
    expect(added.body.error.details).toEqual([expect.objectContaining({ path: 'products[2].productId' })]);
  });

  it('take their GET body back unbound from their event after it dropped a product they list; bound to another event, every product is checked again', async () => {
    // Prepare: the event keeps VIP only; the checkout still lists Parking
    const { event, checkout } = await makeCheckoutOfTwo();
    await call('PATCH', `/v1/events/${event.id}`, { products: [event.products[0]] });
    const before = (await call('GET', `/v1/checkouts/${checkout.id}`)).checkout;
    const other = await makeEvent();
    // Act
    const unbound = await send('PATCH', `/v1/checkouts/${checkout.id}`, { ...before, eventId: null });
    const rebound = await send('PATCH', `/v1/checkouts/${checkout.id}`, { eventId: other.id });
    // Assess
    expect(unbound.status, unbound.text).toBe(200);
    expect(unbound.body.data).toMatchObject({ isEventSet: false, products: before.products });
    expect(unbound.body.data).not.toHaveProperty('eventId');
    expect(rebound.status).toBe(422);
    expect(rebound.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'products[1].productId' })]));
  });
});

describe('checkout computed fields', () => {
  async function makeLinkedCheckout() {
    const event = await makeEvent({ image: ['https://cdn.example.com/gala.jpg'] });
    const form = (await call('POST', '/v1/forms', { name: unique('Order'), type: 'order' })).data;
    const created = (await call('POST', '/v1/checkouts', { name: unique('Tickets'), eventId: event.id, orderFormId: form.id, products: [{ productId: event.products[0].id }] })).data;
    const before = (await call('GET', `/v1/checkouts/${created.id}`)).checkout;
    return { event, form, before };
  }

  it('computed from the checkout itself are compared with what GET answers: the values read go back (200), a changed one is 422 on its path', async () => {
    // Prepare: a checkout with an event (and its image) and an order form, so every computed field is present
    const { event, form, before } = await makeLinkedCheckout();
    expect(before).toMatchObject({ productsCount: 1, isEventSet: true, eventName: event.name, eventImage: 'https://cdn.example.com/gala.jpg', formName: form.name });
    const changes: Json = { productsCount: 5, isEventSet: false };
    // Act
    const refused = await Promise.all(Object.entries(changes).map(([name, value]) => send('PATCH', `/v1/checkouts/${before.id}`, { ...before, name: 'Renamed checkout', [name]: value })));
    const roundTrip = await send('PATCH', `/v1/checkouts/${before.id}`, { ...before, name: 'Renamed checkout' });
    // Assess
    expect(refused.map((response) => response.status)).toEqual(Object.keys(changes).map(() => 422));
    expect(refused.map((response) => response.body.error.details)).toEqual(Object.keys(changes).map((name) => [expect.objectContaining({ path: name, message: expect.stringContaining('computed by the server') })]));
    expect(roundTrip.status, roundTrip.text).toBe(200);
    expect(roundTrip.body.data).toMatchObject({ ...before, name: 'Renamed checkout', version: before.version + 1, updatedAt: expect.any(String) });
  });

  it('read from the event and the form are ignored: a GET body read before they were renamed goes back (200)', async () => {
    // Prepare: another client renames the event, changes its image and renames the form after the read
    const { event, form, before } = await makeLinkedCheckout();
    await call('PATCH', `/v1/events/${event.id}`, { name: unique('Renamed event'), image: ['https://cdn.example.com/new.jpg'] });
    const renamedForm = (await call('PATCH', `/v1/forms/${form.id}`, { name: unique('Renamed order') })).data;
    // Act
    const roundTrip = await send('PATCH', `/v1/checkouts/${before.id}`, { ...before, description: 'Edited' });
    // Assess: the answer shows the linked resources as they are now
    expect(roundTrip.status, roundTrip.text).toBe(200);
    expect(roundTrip.body.data).toMatchObject({ description: 'Edited', version: before.version + 1, formName: renamedForm.name, eventImage: 'https://cdn.example.com/new.jpg' });
    expect(roundTrip.body.data.eventName).not.toBe(before.eventName);
  });
});
