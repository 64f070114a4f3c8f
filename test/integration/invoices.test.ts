import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Invoices');
  other = await api.newWorkspace('Invoices other');
});
afterAll(async () => api.close());

let contactCounter = 0;

async function newContact(ws: TestWorkspace, extra: Record<string, unknown> = {}): Promise<{ id: string; email: string }> {
  contactCounter += 1;
  const response = await api.request('POST', '/v1/contacts', {
    key: ws.apiKey,
    body: { email: `buyer${contactCounter}-${Date.now()}@example.com`, firstName: 'Ada', lastName: 'Lovelace', phone: '+15550100', ...extra },
  });
  expect(response.status).toBe(201);
  return response.body.data;
}

function line(extra: Record<string, unknown> = {}) {
  return { description: 'General admission', quantity: 2, unitAmount: 1500, taxAmount: 195, ...extra };
}

async function newInvoice(ws: TestWorkspace, customerId: string, extra: Record<string, unknown> = {}) {
  const response = await api.request('POST', '/v1/invoices', { key: ws.apiKey, body: { customerId, currency: 'USD', lineItems: [line()], ...extra } });
  expect(response.status).toBe(201);
  return response.body.data;
}

async function post(path: string, body?: unknown, ws: TestWorkspace = workspace) {
  return api.request('POST', path, { key: ws.apiKey, ...(body === undefined ? {} : { body }) });
}

describe('POST /v1/invoices', () => {
  it('creates a draft with number null, totals in cents and snapshots filled from the contact', async () => {
    // Prepare
    const contact = await newContact(workspace);
    // Act
    const response = await api.request('POST', '/v1/invoices', {
      key: workspace.apiKey,
      body: {
        customerId: contact.id,
        customerFirstName: 'Given',
        currency: 'USD',
        lineItems: [line(), { description: 'Parking', quantity: 1, unitAmount: 999 }],
      },
    });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      status: 'draft', number: null, hostId: workspace.workspaceId, customerId: contact.id,
      customerEmail: contact.email, customerFirstName: 'Given', customerLastName: 'Lovelace', customerPhone: '+15550100',
      subtotal: 3999, taxTotal: 195, total: 4194, amountPaid: 0, amountDue: 4194, autoCharge: false, payments: [], taxIds: [], version: 1,
    });
    expect(response.body.data.id).toMatch(/^[a-f0-9]{24}$/);
  });

  it('rejects a customer that is not a contact of the workspace with 422 on customerId', async () => {
    // Prepare
    const foreign = await newContact(other);
    // Act
    const response = await post('/v1/invoices', { customerId: foreign.id, currency: 'USD', lineItems: [line()] });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([expect.objectContaining({ path: 'customerId' })]);
  });

  it.each([
    ['no line items', { lineItems: [] }, 'lineItems'],
    ['a fractional quantity', { lineItems: [line({ quantity: 1.5 })] }, 'lineItems[0].quantity'],
    ['a zero quantity', { lineItems: [line({ quantity: 0 })] }, 'lineItems[0].quantity'],
    ['a fractional amount', { lineItems: [line({ unitAmount: 10.5 })] }, 'lineItems[0].unitAmount'],
    ['an unknown timezone', { lineItems: [line({ eventTimezone: 'Mars/Olympus' })] }, 'lineItems[0].eventTimezone'],
    ['components outside a bundle', { lineItems: [line({ productType: 'product', components: [{ productId: 'p', productName: 'P' }] })] }, 'lineItems[0].components'],
    ['an unsupported currency', { currency: 'EUR' }, 'currency'],
  ])('rejects %s with 422', async (_name, override, path) => {
    // Prepare
    const contact = await newContact(workspace);
    // Act
    const response = await post('/v1/invoices', { customerId: contact.id, currency: 'USD', lineItems: [line()], ...override });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  it('keeps every line item field, bundle components and seating information', async () => {
    // Prepare
    const contact = await newContact(workspace);
    const event = await post('/v1/events', { name: 'Gala', start: '2027-01-01T20:00:00Z', end: '2027-01-01T23:00:00Z' });
    const bundle = line({
      productType: 'bundle', eventTimezone: 'America/Toronto', eventId: event.body.data.id, willCall: true, disableQrCode: true,
      eventStart: '2027-01-01T20:00:00Z', seatingInformation: { sectionId: 'A', rowId: '3', seatId: '12', priceLevelId: 'pl1' },
      components: [{ productId: 'p1', productName: 'Ticket', productType: 'event-ticket', seatingInformation: { seatId: '13' } }],
    });
    // Act
    const invoice = await newInvoice(workspace, contact.id, { lineItems: [bundle], currency: 'CAD', taxIds: [{ type: 'ca_gst', value: '123' }] });
    // Assess
    expect(invoice.lineItems[0]).toEqual(bundle);
    expect(invoice.currency).toBe('CAD');
    expect(invoice.taxIds).toEqual([{ type: 'ca_gst', value: '123' }]);
  });

  it('ignores a line\'s inventoryConsumedAt, which only fulfillment stamps', async () => {
    // Prepare
    const contact = await newContact(workspace);
    // Act
    const response = await post('/v1/invoices', { customerId: contact.id, currency: 'USD', lineItems: [line({ inventoryConsumedAt: '2026-01-01T00:00:00Z' })] });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data.lineItems).toEqual([line()]);
    const stored = await api.request('GET', `/v1/invoices/${response.body.data.id}`, { key: workspace.apiKey });
    expect(stored.body.data.lineItems).toEqual([line()]);
  });

  it('replays the first response for a repeated Idempotency-Key and refuses a different body', async () => {
    // Prepare
    const contact = await newContact(workspace);
    const body = { customerId: contact.id, currency: 'USD', lineItems: [line()] };
    const headers = { 'Idempotency-Key': `create-${contact.id}` };
    // Act
    const first = await api.request('POST', '/v1/invoices', { key: workspace.apiKey, body, headers });
    const again = await api.request('POST', '/v1/invoices', { key: workspace.apiKey, body, headers });
    const different = await api.request('POST', '/v1/invoices', { key: workspace.apiKey, body: { ...body, currency: 'CAD' }, headers });
    // Assess
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(different.status).toBe(409);
    expect(different.body.error.code).toBe('idempotency_key_reused');
  });
});

describe('GET /v1/invoices', () => {
  it('lists the workspace\'s invoices with the status and customerId filters', async () => {
    // Prepare
    const ws = await api.newWorkspace('Invoice list');
    const alice = await newContact(ws);
    const bob = await newContact(ws);
    const a1 = await newInvoice(ws, alice.id);
    const a2 = await newInvoice(ws, alice.id);
    const b1 = await newInvoice(ws, bob.id);
    await post(`/v1/invoices/${a2.id}/finalize`, undefined, ws);
    // Act
    const all = await api.request('GET', '/v1/invoices', { key: ws.apiKey });
    const ofAlice = await api.request('GET', `/v1/invoices?customerId=${alice.id}`, { key: ws.apiKey });
    const open = await api.request('GET', '/v1/invoices?status=open', { key: ws.apiKey });
    const paged = await api.request('GET', '/v1/invoices?limit=2&direction=desc', { key: ws.apiKey });
    // Assess
    expect(all.body).toMatchObject({ page: 0, limit: 20, total: 3, hasMore: false });
    expect(all.body.data.map((invoice: { id: string }) => invoice.id)).toEqual([a1.id, a2.id, b1.id]);
    expect(ofAlice.body.data.map((invoice: { id: string }) => invoice.id)).toEqual([a1.id, a2.id]);
    expect(open.body.data.map((invoice: { id: string }) => invoice.id)).toEqual([a2.id]);
    expect(paged.body.data.map((invoice: { id: string }) => invoice.id)).toEqual([b1.id, a2.id]);
    expect(paged.body.hasMore).toBe(true);
  });

  it('follows status changes and combines both filters', async () => {
    // Prepare
    const ws = await api.newWorkspace('Invoice filters');
    const alice = await newContact(ws);
    const bob = await newContact(ws);
    const aliceDraft = await newInvoice(ws, alice.id);
    const aliceVoid = await newInvoice(ws, alice.id);
    const bobVoid = await newInvoice(ws, bob.id);
    await post(`/v1/invoices/${aliceVoid.id}/void`, undefined, ws);
    await post(`/v1/invoices/${bobVoid.id}/void`, undefined, ws);
    const moved = await newInvoice(ws, bob.id);
    await api.request('PATCH', `/v1/invoices/${moved.id}`, { key: ws.apiKey, body: { customerId: alice.id } });
    // Act
    const ids = async (query: string) => (await api.request('GET', `/v1/invoices?${query}`, { key: ws.apiKey })).body.data.map((invoice: { id: string }) => invoice.id);
    // Assess
    expect(await ids('status=draft')).toEqual([aliceDraft.id, moved.id]);
    expect(await ids('status=void')).toEqual([aliceVoid.id, bobVoid.id]);
    expect(await ids(`status=void&customerId=${alice.id}`)).toEqual([aliceVoid.id]);
    expect(await ids(`customerId=${alice.id}&direction=desc`)).toEqual([moved.id, aliceVoid.id, aliceDraft.id]);
    expect(await ids(`customerId=${bob.id}`)).toEqual([bobVoid.id]);
  });

  it('answers 400 invalid_query for a bad limit or status', async () => {
    const badLimit = await api.request('GET', '/v1/invoices?limit=101', { key: workspace.apiKey });
    const badStatus = await api.request('GET', '/v1/invoices?status=late', { key: workspace.apiKey });
    expect(badLimit.status).toBe(400);
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error.code).toBe('invalid_query');
  });
});

describe('GET /v1/invoices/{invoiceId}', () => {
  it('is 404 for another workspace\'s invoice, exactly like an absent one', async () => {
    // Prepare
    const contact = await newContact(workspace);
    const invoice = await newInvoice(workspace, contact.id);
    // Act
    const foreign = await api.request('GET', `/v1/invoices/${invoice.id}`, { key: other.apiKey });
    const foreignFinalize = await post(`/v1/invoices/${invoice.id}/finalize`, undefined, other);
    const foreignPayment = await post(`/v1/invoices/${invoice.id}/payments`, { amount: 1, idempotencyKey: 'x' }, other);
    const foreignPatch = await api.request('PATCH', `/v1/invoices/${invoice.id}`, { key: other.apiKey, body: { notes: 'mine' } });
    const foreignList = await api.request('GET', '/v1/invoices?limit=100', { key: other.apiKey });
    const absent = await api.request('GET', '/v1/invoices/aaaaaaaaaaaaaaaaaaaaaaaa', { key: workspace.apiKey });
    const malformed = await api.request('GET', '/v1/invoices/not-an-id', { key: workspace.apiKey });
    const own = await api.request('GET', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey });
    // Assess
    expect(foreign.status).toBe(404);
    expect(foreignFinalize.status).toBe(404);
    expect(foreignPayment.status).toBe(404);
    expect(foreignPatch.status).toBe(404);
    expect(foreignList.body.data.map((item: { id: string }) => item.id)).not.toContain(invoice.id);
    expect(foreign.body).toEqual(absent.body);
    expect(malformed.status).toBe(404);
    expect(own.body.data.id).toBe(invoice.id);
  });
});

describe('PATCH /v1/invoices/{invoiceId}', () => {
  it('recomputes totals on a draft and bumps the version', async () => {
    // Prepare
    const contact = await newContact(workspace);
    const invoice = await newInvoice(workspace, contact.id);
    // Act
    const response = await api.request('PATCH', `/v1/invoices/${invoice.id}`, {
      key: workspace.apiKey,
      headers: { 'If-Match': String(invoice.version) },
      body: { lineItems: [line({ quantity: 3, unitAmount: 333, taxAmount: 1 })], autoCharge: true },
    });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ subtotal: 999, taxTotal: 1, total: 1000, amountDue: 1000, autoCharge: true, version: 2 });
  });

  it('removes the optional fields sent as null, snapshots included, and keeps the others', async () => {
    // Prepare
    const contact = await newContact(workspace);
    const invoice = await newInvoice(workspace, contact.id, { notes: 'Pay at the door', dueAt: '2027-01-31T00:00:00Z', quoteId: 'Q-7' });

    // Act
    const response = await api.request('PATCH', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey, body: { notes: null, dueAt: null, customerPhone: null } });
    const read = await api.request('GET', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey });

    // Assess
    expect(response.status).toBe(200);
    for (const body of [response.body.data, read.body.data]) {
      expect(body).not.toHaveProperty('notes');
      expect(body).not.toHaveProperty('dueAt');
      expect(body).not.toHaveProperty('customerPhone');
      expect(body).toMatchObject({ quoteId: 'Q-7', customerEmail: contact.email, version: 2 });
    }
  });

  it('refreshes the snapshots from a new customer, then applies the ones sent: a value wins, null removes', async () => {
    // Prepare
    const first = await newContact(workspace);
    const second = await newContact(workspace, { firstName: 'Grace', lastName: 'Hopper', phone: '+15145550100' });
    const invoice = await newInvoice(workspace, first.id);

    // Act
    const response = await api.request('PATCH', `/v1/invoices/${invoice.id}`, {
      key: workspace.apiKey, body: { customerId: second.id, customerFirstName: 'Amazing Grace', customerPhone: null },
    });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ customerId: second.id, customerEmail: second.email, customerFirstName: 'Amazing Grace', customerLastName: 'Hopper', version: 2 });
    expect(response.body.data).not.toHaveProperty('customerPhone');
  });

  it('is 422 for null on a field every invoice has, and changes nothing', async () => {
    // Prepare
    const contact = await newContact(workspace);
    const invoice = await newInvoice(workspace, contact.id);

    // Act
    const responses = await Promise.all(['currency', 'lineItems', 'customerId', 'taxIds', 'autoCharge'].map((field) =>
      api.request('PATCH', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey, body: { [field]: null } })));
    const read = await api.request('GET', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey });

    // Assess
    for (const response of responses) {
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
    }
    expect(read.body.data.version).toBe(1);
  });

  it('is 422 on the line\'s path for an inventoryConsumedAt the line does not hold, and changes nothing', async () => {
    // Prepare
    const contact = await newContact(workspace);
    const invoice = await newInvoice(workspace, contact.id);
    // Act
    const response = await api.request('PATCH', `/v1/invoices/${invoice.id}`, {
      key: workspace.apiKey, body: { ...invoice, lineItems: [line({ quantity: 5, inventoryConsumedAt: '2026-01-01T00:00:00Z' })] },
    });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: 'lineItems[0].inventoryConsumedAt', message: expect.stringMatching(/read-only/) }]);
    const after = await api.request('GET', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey });
    expect(after.body.data).toEqual(invoice);
  });

  it('is 409 conflict with a stale If-Match', async () => {
    const contact = await newContact(workspace);
    const invoice = await newInvoice(workspace, contact.id);
    await api.request('PATCH', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey, body: { notes: 'first' } });
    const response = await api.request('PATCH', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey, headers: { 'If-Match': '1' }, body: { notes: 'second' } });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('conflict');
  });

  it('is 409 invalid_state once finalized', async () => {
    const contact = await newContact(workspace);
    const invoice = await newInvoice(workspace, contact.id);
    await post(`/v1/invoices/${invoice.id}/finalize`);
    const response = await api.request('PATCH', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey, body: { notes: 'late' } });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('invalid_state');
  });
});
