import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Invoice transitions');
});
afterAll(async () => api.close());

let contactCounter = 0;

async function newContact(card?: string): Promise<string> {
  contactCounter += 1;
  const response = await api.request('POST', '/v1/contacts', {
    key: workspace.apiKey,
    body: { email: `payer${contactCounter}@example.com`, ...(card ? { defaultPaymentMethod: card } : {}) },
  });
  expect(response.status).toBe(201);
  return response.body.data.id;
}

/** A draft of 2 x 1500 + 200 tax = 3200 cents. */
async function draft(options: { card?: string; autoCharge?: boolean; unitAmount?: number } = {}) {
  const customerId = await newContact(options.card);
  const response = await api.request('POST', '/v1/invoices', {
    key: workspace.apiKey,
    body: {
      customerId, currency: 'USD', autoCharge: options.autoCharge ?? false,
      lineItems: [{ description: 'Seat', quantity: 2, unitAmount: options.unitAmount ?? 1500, taxAmount: options.unitAmount === 0 ? 0 : 200 }],
    },
  });
  expect(response.status).toBe(201);
  return response.body.data;
}

const post = (path: string, body?: unknown) => api.request('POST', path, { key: workspace.apiKey, ...(body === undefined ? {} : { body }) });
const finalize = (id: string) => post(`/v1/invoices/${id}/finalize`);
const pay = (id: string, amount: number, key = `pay-${id}-${amount}-${Math.random()}`) => post(`/v1/invoices/${id}/payments`, { amount, idempotencyKey: key });

async function open() {
  const invoice = await draft();
  return (await finalize(invoice.id)).body.data;
}

async function failed() {
  const invoice = await draft({ card: 'pm_card_chargeDeclined', autoCharge: true });
  return (await finalize(invoice.id)).body.data;
}

async function paid() {
  const invoice = await open();
  await pay(invoice.id, invoice.amountDue);
  return (await api.request('GET', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey })).body.data;
}

async function voided() {
  const invoice = await draft();
  return (await post(`/v1/invoices/${invoice.id}/void`)).body.data;
}

describe('POST /v1/invoices/{invoiceId}/finalize', () => {
  it('issues a draft without autoCharge as open with a number and issuedAt', async () => {
    const invoice = await draft();
    const response = await finalize(invoice.id);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'open', number: expect.stringMatching(/^INV-\d{6}$/), amountDue: 3200, payments: [] });
    expect(response.body.data.issuedAt).toEqual(expect.any(String));
  });

  it('charges the saved card with autoCharge and marks the invoice paid', async () => {
    const invoice = await draft({ card: 'pm_card_visa', autoCharge: true });
    const response = await finalize(invoice.id);
    expect(response.body.data).toMatchObject({ status: 'paid', amountPaid: 3200, amountDue: 0 });
    expect(response.body.data.paidAt).toEqual(expect.any(String));
    expect(response.body.data.payments).toEqual([expect.objectContaining({
      status: 'succeeded', amount: 3200, method: 'card', externalId: expect.stringMatching(/^pi_/), chargeId: expect.stringMatching(/^ch_/),
    })]);
  });

  it.each([
    ['pm_card_chargeDeclined', 'card_declined'],
    ['pm_card_authenticationRequired', 'authentication_required'],
    [undefined, 'no_payment_method'],
  ])('logs a failed payment and moves to payment_failed for card %s', async (card, failureCode) => {
    const invoice = await draft({ card, autoCharge: true });
    const response = await finalize(invoice.id);
    expect(response.body.data).toMatchObject({ status: 'payment_failed', amountPaid: 0, amountDue: 3200, number: expect.stringMatching(/^INV-/) });
    expect(response.body.data.payments).toEqual([expect.objectContaining({ status: 'failed', amount: 3200, failureCode, failureMessage: expect.any(String) })]);
  });

  it('marks a zero-total invoice paid at once', async () => {
    const invoice = await draft({ unitAmount: 0 });
    const response = await finalize(invoice.id);
    expect(response.body.data).toMatchObject({ status: 'paid', total: 0, payments: [] });
  });

  it.each([['open', open], ['paid', paid], ['void', voided], ['payment_failed', failed]])('is 409 invalid_state from %s', async (_status, make) => {
    const invoice = await make();
    const response = await finalize(invoice.id);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('invalid_state');
  });
});

describe('POST /v1/invoices/{invoiceId}/charge', () => {
  it('retries a failed charge after the customer saved a working card', async () => {
    const invoice = await failed();
    await api.request('PATCH', `/v1/contacts/${invoice.customerId}`, { key: workspace.apiKey, body: { defaultPaymentMethod: 'pm_card_visa' } });
    const response = await post(`/v1/invoices/${invoice.id}/charge`);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'paid', amountPaid: 3200, amountDue: 0 });
    expect(response.body.data.payments.map((payment: { status: string }) => payment.status)).toEqual(['failed', 'succeeded']);
  });

  it('moves an open invoice to payment_failed when the charge fails', async () => {
    const invoice = await open();
    const response = await post(`/v1/invoices/${invoice.id}/charge`);
    expect(response.body.data).toMatchObject({ status: 'payment_failed', amountPaid: 0 });
    expect(response.body.data.payments[0].failureCode).toBe('no_payment_method');
  });

  it('answers the repeat of a recorded payment whatever its paidAt, a future one included (the repeat is recognised first)', async () => {
    // Prepare
    const invoice = await open();
    const first = await post(`/v1/invoices/${invoice.id}/payments`, { amount: 10, idempotencyKey: 'once', paidAt: '2024-03-01T12:00:00Z' });
    // Act
    const repeat = await post(`/v1/invoices/${invoice.id}/payments`, { amount: 10, idempotencyKey: 'once', paidAt: '2035-01-01T00:00:00Z' });
    // Assess
    expect(first.status).toBe(201);
    expect(repeat.status, repeat.text).toBe(201);
    expect(repeat.body.data).toEqual(first.body.data);
  });

  it.each([['draft', draft], ['paid', paid], ['void', voided]])('is 409 invalid_state from %s', async (_status, make) => {
    const invoice = await make();
    const response = await post(`/v1/invoices/${invoice.id}/charge`);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('invalid_state');
  });
});

describe('POST /v1/invoices/{invoiceId}/payments', () => {
  it('applies partial payments and marks the invoice paid when nothing is due', async () => {
    const invoice = await open();
    const first = await pay(invoice.id, 1000);
    const afterFirst = (await api.request('GET', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey })).body.data;
    await pay(invoice.id, 2200);
    const afterSecond = (await api.request('GET', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey })).body.data;
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ status: 'succeeded', amount: 1000, method: 'manual', refunds: [] });
    expect(afterFirst).toMatchObject({ status: 'open', amountPaid: 1000, amountDue: 2200 });
    expect(afterSecond).toMatchObject({ status: 'paid', amountPaid: 3200, amountDue: 0 });
    expect(afterSecond.paidAt).toEqual(expect.any(String));
  });

  it('accepts a manual payment on a payment_failed invoice', async () => {
    const invoice = await failed();
    const response = await pay(invoice.id, 3200);
    expect(response.status).toBe(201);
    const after = (await api.request('GET', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey })).body.data;
    expect(after).toMatchObject({ status: 'paid', amountPaid: 3200 });
  });

  it('rejects an amount above amountDue with 422', async () => {
    const invoice = await open();
    const response = await pay(invoice.id, 3201);
    expect(response.status).toBe(422);
    expect(response.body.error.details[0].path).toBe('amount');
  });

  it('refuses a paidAt in the future with 422 on paidAt and records nothing; a backdated paidAt is kept', async () => {
    // Prepare
    const invoice = await open();
    // Act
    const future = await post(`/v1/invoices/${invoice.id}/payments`, { amount: 10, idempotencyKey: 'fut', paidAt: '2035-01-01T00:00:00Z' });
    const backdated = await post(`/v1/invoices/${invoice.id}/payments`, { amount: 10, idempotencyKey: 'late', paidAt: '2024-03-01T12:00:00Z' });
    // Assess
    expect(future.status).toBe(422);
    expect(future.body.error).toMatchObject({ code: 'validation_failed', details: [{ path: 'paidAt', message: 'must not be in the future' }] });
    expect(backdated.status).toBe(201);
    expect(backdated.body.data.paidAt).toBe('2024-03-01T12:00:00Z');
    const after = (await api.request('GET', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey })).body.data;
    expect(after.payments.map((payment: { idempotencyKey: string }) => payment.idempotencyKey)).toEqual(['late']);
  });

  it.each([['draft', draft], ['paid', paid], ['void', voided]])('is 409 invalid_state from %s', async (_status, make) => {
    const invoice = await make();
    const response = await pay(invoice.id, 1);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('invalid_state');
  });
});

describe('POST /v1/invoices/{invoiceId}/payments/{paymentId}/refunds', () => {
  it('refunds part of a succeeded payment without changing amountPaid or the status', async () => {
    const invoice = await paid();
    const paymentId = invoice.payments[0].id;
    const response = await post(`/v1/invoices/${invoice.id}/payments/${paymentId}/refunds`, { amount: 500, reason: 'requested_by_customer', idempotencyKey: 'r1' });
    const after = (await api.request('GET', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey })).body.data;
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ amount: 500, paymentId, reason: 'requested_by_customer', ledgerEntryId: expect.stringMatching(/^[a-f0-9]{24}$/) });
    expect(after).toMatchObject({ status: 'paid', amountPaid: 3200, amountRefunded: 500, amountDue: 0 });
    expect(after.payments[0]).toMatchObject({ amountRefunded: 500, refunds: [expect.objectContaining({ id: response.body.data.id })] });
  });

  it('rejects refunds beyond the payment amount and of failed payments with 422', async () => {
    const invoice = await paid();
    const declined = await failed();
    const tooMuch = await post(`/v1/invoices/${invoice.id}/payments/${invoice.payments[0].id}/refunds`, { amount: 3201, idempotencyKey: 'big' });
    const ofFailed = await post(`/v1/invoices/${declined.id}/payments/${declined.payments[0].id}/refunds`, { amount: 1, idempotencyKey: 'f' });
    expect(tooMuch.status).toBe(422);
    expect(ofFailed.status).toBe(422);
  });

  it('is 404 for an unknown payment', async () => {
    const invoice = await paid();
    const response = await post(`/v1/invoices/${invoice.id}/payments/bbbbbbbbbbbbbbbbbbbbbbbb/refunds`, { amount: 1, idempotencyKey: 'x' });
    expect(response.status).toBe(404);
  });
});

describe('POST /v1/invoices/{invoiceId}/void', () => {
  it.each([['draft', draft], ['open', open], ['payment_failed', failed]])('voids from %s and sets voidedAt', async (_status, make) => {
    const invoice = await make();
    const response = await post(`/v1/invoices/${invoice.id}/void`);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'void', voidedAt: expect.any(String) });
  });

  it('is 409 invalid_state once a payment succeeded, from paid and from void', async () => {
    const partial = await open();
    await pay(partial.id, 100);
    for (const invoice of [partial, await paid(), await voided()]) {
      const response = await post(`/v1/invoices/${invoice.id}/void`);
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('invalid_state');
    }
  });
});
