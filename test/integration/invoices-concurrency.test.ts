import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

async function customer(ws: TestWorkspace): Promise<string> {
  const response = await api.request('POST', '/v1/contacts', { key: ws.apiKey, body: { email: `c-${Math.random().toString(16).slice(2)}@example.com` } });
  expect(response.status).toBe(201);
  return response.body.data.id;
}

async function draft(ws: TestWorkspace, customerId: string, unitAmount = 1000): Promise<string> {
  const response = await api.request('POST', '/v1/invoices', {
    key: ws.apiKey,
    body: { customerId, currency: 'USD', lineItems: [{ description: 'Ticket', quantity: 1, unitAmount }] },
  });
  expect(response.status).toBe(201);
  return response.body.data.id;
}

/** An open invoice with one succeeded manual payment of `amount`; returns both ids. */
async function paidInvoice(ws: TestWorkspace, amount: number): Promise<{ invoiceId: string; paymentId: string }> {
  const invoiceId = await draft(ws, await customer(ws), amount);
  await api.request('POST', `/v1/invoices/${invoiceId}/finalize`, { key: ws.apiKey });
  const payment = await api.request('POST', `/v1/invoices/${invoiceId}/payments`, { key: ws.apiKey, body: { amount, idempotencyKey: 'full' } });
  expect(payment.status).toBe(201);
  return { invoiceId, paymentId: payment.body.data.id };
}

describe('POST /v1/invoices/{invoiceId}/finalize under concurrency', () => {
  it('gives 20 concurrent finalizes the numbers 1..20 exactly once', async () => {
    // Prepare
    const ws = await api.newWorkspace('Numbering');
    const customerId = await customer(ws);
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) ids.push(await draft(ws, customerId));
    // Act
    const responses = await Promise.all(ids.map((id) => api.request('POST', `/v1/invoices/${id}/finalize`, { key: ws.apiKey })));
    // Assess
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    const numbers = responses.map((response) => response.body.data.number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `INV-${String(i + 1).padStart(6, '0')}`));
  });

  it('finalizes one invoice once when the same finalize races itself', async () => {
    const ws = await api.newWorkspace('Double finalize');
    const id = await draft(ws, await customer(ws));
    const responses = await Promise.all([1, 2, 3].map(() => api.request('POST', `/v1/invoices/${id}/finalize`, { key: ws.apiKey })));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409]);
    const next = await draft(ws, await customer(ws));
    const second = await api.request('POST', `/v1/invoices/${next}/finalize`, { key: ws.apiKey });
    expect(second.body.data.number).toBe('INV-000002');
  });
});

describe('POST /v1/invoices/{invoiceId}/payments/{paymentId}/refunds under concurrency', () => {
  it('never lets 10 concurrent refunds exceed the payment', async () => {
    // Prepare
    const ws = await api.newWorkspace('Refund race');
    const { invoiceId, paymentId } = await paidInvoice(ws, 1000);
    // Act: 10 x 300 against a 1000 payment: exactly 3 can fit
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => api.request('POST', `/v1/invoices/${invoiceId}/payments/${paymentId}/refunds`, {
      key: ws.apiKey, body: { amount: 300, idempotencyKey: `refund-${i}` },
    })));
    // Assess
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 422)).toHaveLength(7);
    const invoice = (await api.request('GET', `/v1/invoices/${invoiceId}`, { key: ws.apiKey })).body.data;
    expect(invoice.payments[0].refunds).toHaveLength(3);
    expect(invoice.payments[0].amountRefunded).toBe(900);
  });
});

describe('POST /v1/invoices/{invoiceId}/payments under concurrency', () => {
  it('never lets concurrent payments exceed amountDue', async () => {
    const ws = await api.newWorkspace('Payment race');
    const invoiceId = await draft(ws, await customer(ws), 1000);
    await api.request('POST', `/v1/invoices/${invoiceId}/finalize`, { key: ws.apiKey });
    const responses = await Promise.all(Array.from({ length: 5 }, (_, i) => api.request('POST', `/v1/invoices/${invoiceId}/payments`, {
      key: ws.apiKey, body: { amount: 300, idempotencyKey: `p-${i}` },
    })));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(3);
    const invoice = (await api.request('GET', `/v1/invoices/${invoiceId}`, { key: ws.apiKey })).body.data;
    expect(invoice).toMatchObject({ amountPaid: 900, amountDue: 100, status: 'open' });
  });
});

describe('idempotencyKey on payments and refunds', () => {
  it('applies a retried payment once and returns the existing record', async () => {
    // Prepare
    const ws = await api.newWorkspace('Payment retries');
    const invoiceId = await draft(ws, await customer(ws), 1000);
    await api.request('POST', `/v1/invoices/${invoiceId}/finalize`, { key: ws.apiKey });
    const body = { amount: 400, idempotencyKey: 'order-42' };
    // Act: two racing and one late retry
    const racing = await Promise.all([1, 2].map(() => api.request('POST', `/v1/invoices/${invoiceId}/payments`, { key: ws.apiKey, body })));
    const late = await api.request('POST', `/v1/invoices/${invoiceId}/payments`, { key: ws.apiKey, body });
    // Assess
    const ids = new Set([...racing, late].map((response) => response.body.data.id));
    expect(ids.size).toBe(1);
    const invoice = (await api.request('GET', `/v1/invoices/${invoiceId}`, { key: ws.apiKey })).body.data;
    expect(invoice.payments).toHaveLength(1);
    expect(invoice).toMatchObject({ amountPaid: 400, amountDue: 600 });
  });

  it('applies a retried refund once and returns the existing record', async () => {
    const ws = await api.newWorkspace('Refund retries');
    const { invoiceId, paymentId } = await paidInvoice(ws, 1000);
    const body = { amount: 250, idempotencyKey: 'rma-7' };
    const path = `/v1/invoices/${invoiceId}/payments/${paymentId}/refunds`;
    const racing = await Promise.all([1, 2, 3].map(() => api.request('POST', path, { key: ws.apiKey, body })));
    const late = await api.request('POST', path, { key: ws.apiKey, body });
    const ids = new Set([...racing, late].map((response) => response.body.data.id));
    expect(ids.size).toBe(1);
    const invoice = (await api.request('GET', `/v1/invoices/${invoiceId}`, { key: ws.apiKey })).body.data;
    expect(invoice.payments[0].refunds).toHaveLength(1);
    expect(invoice.amountRefunded).toBe(250);
  });

  it('replays a finalize with the same Idempotency-Key header without finalizing twice', async () => {
    const ws = await api.newWorkspace('Finalize header');
    const id = await draft(ws, await customer(ws));
    const headers = { 'Idempotency-Key': 'finalize-once' };
    const first = await api.request('POST', `/v1/invoices/${id}/finalize`, { key: ws.apiKey, headers });
    const replay = await api.request('POST', `/v1/invoices/${id}/finalize`, { key: ws.apiKey, headers });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
  });
});
