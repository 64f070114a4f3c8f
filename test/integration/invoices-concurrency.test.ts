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

  const balanceOf = async (ws: TestWorkspace) => (await api.request('GET', '/v1/events/balance', { key: ws.apiKey })).body.data;
  const invoiceOf = async (ws: TestWorkspace, id: string) => (await api.request('GET', `/v1/invoices/${id}`, { key: ws.apiKey })).body.data;

  it('refuses a payment key reused with another amount: 409 idempotency_key_reused, nothing recorded, balance unchanged', async () => {
    // Prepare
    const ws = await api.newWorkspace('Payment key reuse');
    const invoiceId = await draft(ws, await customer(ws), 1000);
    await api.request('POST', `/v1/invoices/${invoiceId}/finalize`, { key: ws.apiKey });
    const path = `/v1/invoices/${invoiceId}/payments`;
    const first = await api.request('POST', path, { key: ws.apiKey, body: { amount: 400, idempotencyKey: 'order-43' } });
    const [balanceBefore, invoiceBefore] = [await balanceOf(ws), await invoiceOf(ws, invoiceId)];
    // Act
    const otherAmount = await api.request('POST', path, { key: ws.apiKey, body: { amount: 500, idempotencyKey: 'order-43' } });
    // Assess
    expect(first.status).toBe(201);
    expect(otherAmount.status).toBe(409);
    expect(otherAmount.body.error.code).toBe('idempotency_key_reused');
    expect(otherAmount.body.error.message).toContain('differs in amount');
    expect(otherAmount.body.error.message).toContain('new idempotencyKey');
    expect(await invoiceOf(ws, invoiceId)).toEqual(invoiceBefore);
    expect(await balanceOf(ws)).toEqual(balanceBefore);
  });

  it('returns the existing payment unchanged for a key repeated with the same amount but another note or paidAt', async () => {
    // Prepare
    const ws = await api.newWorkspace('Payment key descriptive fields');
    const invoiceId = await draft(ws, await customer(ws), 1000);
    await api.request('POST', `/v1/invoices/${invoiceId}/finalize`, { key: ws.apiKey });
    const path = `/v1/invoices/${invoiceId}/payments`;
    const first = await api.request('POST', path, { key: ws.apiKey, body: { amount: 400, idempotencyKey: 'order-44', note: 'cash', paidAt: '2026-01-02T03:04:05.000Z' } });
    const [balanceBefore, invoiceBefore] = [await balanceOf(ws), await invoiceOf(ws, invoiceId)];
    // Act
    const repeats = [
      await api.request('POST', path, { key: ws.apiKey, body: { amount: 400, idempotencyKey: 'order-44' } }),
      await api.request('POST', path, { key: ws.apiKey, body: { amount: 400, idempotencyKey: 'order-44', note: 'second' } }),
      await api.request('POST', path, { key: ws.apiKey, body: { amount: 400, idempotencyKey: 'order-44', paidAt: '2026-01-03T00:00:00.000Z' } }),
    ];
    // Assess
    expect(first.status).toBe(201);
    for (const repeat of repeats) {
      expect(repeat.status).toBe(201);
      expect(repeat.body.data).toEqual(first.body.data);
    }
    expect(first.body.data).toMatchObject({ note: 'cash', paidAt: '2026-01-02T03:04:05.000Z' });
    expect(await invoiceOf(ws, invoiceId)).toEqual(invoiceBefore);
    expect(await balanceOf(ws)).toEqual(balanceBefore);
  });

  it('records one payment for two racing requests with the same key and amount but different notes', async () => {
    // Prepare
    const ws = await api.newWorkspace('Payment key note race');
    const invoiceId = await draft(ws, await customer(ws), 1000);
    await api.request('POST', `/v1/invoices/${invoiceId}/finalize`, { key: ws.apiKey });
    // Act
    const responses = await Promise.all(['first', 'second'].map((note) => api.request('POST', `/v1/invoices/${invoiceId}/payments`, { key: ws.apiKey, body: { amount: 300, idempotencyKey: 'race-note', note } })));
    // Assess
    const [first, second] = responses.map((response) => response.body.data);
    expect(responses.map((response) => response.status)).toEqual([201, 201]);
    expect(second).toEqual(first);
    const invoice = await invoiceOf(ws, invoiceId);
    expect(invoice.payments).toEqual([first]);
    expect(invoice.amountPaid).toBe(300);
  });

  it('records exactly one of two racing payments that share a key but not the amount; the other is 409', async () => {
    const ws = await api.newWorkspace('Payment key race');
    const invoiceId = await draft(ws, await customer(ws), 1000);
    await api.request('POST', `/v1/invoices/${invoiceId}/finalize`, { key: ws.apiKey });
    const responses = await Promise.all([300, 700].map((amount) => api.request('POST', `/v1/invoices/${invoiceId}/payments`, { key: ws.apiKey, body: { amount, idempotencyKey: 'race' } })));
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    const winner = responses.find((response) => response.status === 201)?.body.data;
    const invoice = await invoiceOf(ws, invoiceId);
    expect(invoice.payments).toEqual([winner]);
    expect(invoice.amountPaid).toBe(winner.amount);
    const [balance] = await balanceOf(ws);
    expect(balance.pending_balance.gross).toBe(winner.amount);
  });

  it('refuses a refund key reused with another amount, or on another payment of the invoice: 409, nothing refunded', async () => {
    // Prepare
    const ws = await api.newWorkspace('Refund key reuse');
    const invoiceId = await draft(ws, await customer(ws), 1000);
    await api.request('POST', `/v1/invoices/${invoiceId}/finalize`, { key: ws.apiKey });
    const payments = [];
    for (const key of ['half-1', 'half-2']) {
      payments.push((await api.request('POST', `/v1/invoices/${invoiceId}/payments`, { key: ws.apiKey, body: { amount: 500, idempotencyKey: key } })).body.data.id);
    }
    const refunds = (paymentId: string) => `/v1/invoices/${invoiceId}/payments/${paymentId}/refunds`;
    const first = await api.request('POST', refunds(payments[0]), { key: ws.apiKey, body: { amount: 100, reason: 'duplicate', idempotencyKey: 'rma-8' } });
    const [balanceBefore, invoiceBefore] = [await balanceOf(ws), await invoiceOf(ws, invoiceId)];
    // Act
    const otherAmount = await api.request('POST', refunds(payments[0]), { key: ws.apiKey, body: { amount: 200, reason: 'duplicate', idempotencyKey: 'rma-8' } });
    const otherPayment = await api.request('POST', refunds(payments[1]), { key: ws.apiKey, body: { amount: 100, reason: 'duplicate', idempotencyKey: 'rma-8' } });
    const same = await api.request('POST', refunds(payments[0]), { key: ws.apiKey, body: { amount: 100, reason: 'duplicate', idempotencyKey: 'rma-8' } });
    // Assess
    expect(first.status).toBe(201);
    for (const response of [otherAmount, otherPayment]) {
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('idempotency_key_reused');
    }
    expect(otherAmount.body.error.message).toContain('differs in amount');
    expect(otherPayment.body.error.message).toContain('paymentId');
    expect(same.status).toBe(201);
    expect(same.body.data).toEqual(first.body.data);
    expect(await invoiceOf(ws, invoiceId)).toEqual(invoiceBefore);
    expect(await balanceOf(ws)).toEqual(balanceBefore);
  });

  it('returns the existing refund unchanged for a key repeated with the same amount but another reason or note', async () => {
    // Prepare
    const ws = await api.newWorkspace('Refund key descriptive fields');
    const { invoiceId, paymentId } = await paidInvoice(ws, 1000);
    const path = `/v1/invoices/${invoiceId}/payments/${paymentId}/refunds`;
    const first = await api.request('POST', path, { key: ws.apiKey, body: { amount: 100, reason: 'duplicate', note: 'desk', idempotencyKey: 'rma-9' } });
    const [balanceBefore, invoiceBefore] = [await balanceOf(ws), await invoiceOf(ws, invoiceId)];
    // Act
    const repeats = [
      await api.request('POST', path, { key: ws.apiKey, body: { amount: 100, idempotencyKey: 'rma-9' } }),
      await api.request('POST', path, { key: ws.apiKey, body: { amount: 100, reason: 'fraudulent', note: 'other', idempotencyKey: 'rma-9' } }),
    ];
    // Assess
    expect(first.status).toBe(201);
    for (const repeat of repeats) {
      expect(repeat.status).toBe(201);
      expect(repeat.body.data).toEqual(first.body.data);
    }
    expect(first.body.data).toMatchObject({ reason: 'duplicate', note: 'desk' });
    expect(await invoiceOf(ws, invoiceId)).toEqual(invoiceBefore);
    expect(await balanceOf(ws)).toEqual(balanceBefore);
  });

  it('refuses an Idempotency-Key header reused with another payment amount, like a body key, and replays the same request', async () => {
    const ws = await api.newWorkspace('Payment header reuse');
    const invoiceId = await draft(ws, await customer(ws), 1000);
    await api.request('POST', `/v1/invoices/${invoiceId}/finalize`, { key: ws.apiKey });
    const headers = { 'Idempotency-Key': 'pay-header-1' };
    const path = `/v1/invoices/${invoiceId}/payments`;
    const first = await api.request('POST', path, { key: ws.apiKey, headers, body: { amount: 300, idempotencyKey: 'body-1' } });
    const balanceBefore = await balanceOf(ws);
    const replay = await api.request('POST', path, { key: ws.apiKey, headers, body: { amount: 300, idempotencyKey: 'body-1' } });
    const different = await api.request('POST', path, { key: ws.apiKey, headers, body: { amount: 600, idempotencyKey: 'body-2' } });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(different.status).toBe(409);
    expect(different.body.error.code).toBe('idempotency_key_reused');
    expect(await balanceOf(ws)).toEqual(balanceBefore);
    expect((await invoiceOf(ws, invoiceId)).payments).toHaveLength(1);
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
