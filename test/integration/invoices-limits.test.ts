import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;
let customerId: string;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Invoice limits');
  const contact = await api.request('POST', '/v1/contacts', { key: workspace.apiKey, body: { email: 'limits@example.com' } });
  expect(contact.status).toBe(201);
  customerId = contact.body.data.id;
});
afterAll(async () => api.close());

/** A line with every text field at its documented maximum (about 7.5 KB serialized). */
function maximalLine() {
  return {
    description: 'd'.repeat(1000), quantity: 1, unitAmount: 100, productId: 'p'.repeat(200), priceId: 'r'.repeat(200),
    productName: 'n'.repeat(500), productImageUrl: `https://img.example.com/${'a'.repeat(1976)}`,
    eventName: 'e'.repeat(500), eventImageUrl: `https://img.example.com/${'b'.repeat(1976)}`, eventLocation: 'l'.repeat(1000),
  };
}

const lines = (count: number) => Array.from({ length: count }, maximalLine);
const post = (path: string, body?: unknown) => api.request('POST', path, { key: workspace.apiKey, ...(body === undefined ? {} : { body }) });

describe('invoice size', () => {
  it('refuses an invoice above the size bound with 422 on lineItems, at create and at revise (not a 500)', async () => {
    // Act: 60 maximal lines, every field within its bounds, about 450 KB
    const created = await post('/v1/invoices', { customerId, currency: 'USD', lineItems: lines(60) });
    const draft = await post('/v1/invoices', { customerId, currency: 'USD', lineItems: lines(1) });
    const revised = await api.request('PATCH', `/v1/invoices/${draft.body.data.id}`, { key: workspace.apiKey, body: { lineItems: lines(60) } });
    // Assess
    for (const response of [created, revised]) {
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_failed', details: [{ path: 'lineItems', message: expect.stringContaining('shorten') }] });
    }
    expect((await api.request('GET', `/v1/invoices/${draft.body.data.id}`, { key: workspace.apiKey })).body.data.lineItems).toHaveLength(1);
  });

  it('keeps room for payments on an invoice near the bound, then refuses a payment or refund that does not fit with 422 and records nothing', async () => {
    // Prepare: an invoice just under the bound, finalized
    const created = await post('/v1/invoices', { customerId, currency: 'USD', lineItems: lines(39), notes: 'x'.repeat(3000) });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect((await post(`/v1/invoices/${id}/finalize`)).status).toBe(200);
    // Act: payments of 1 cent with 2,000-character notes until the invoice has no room
    const answers: { status: number; body: { error?: { message: string } } }[] = [];
    for (let index = 0; index < 60; index += 1) {
      const answer = await post(`/v1/invoices/${id}/payments`, { amount: 1, idempotencyKey: `pay-${index}`, note: 'n'.repeat(2000) });
      answers.push(answer);
      if (answer.status !== 201) break;
    }
    const first = (await api.request('GET', `/v1/invoices/${id}`, { key: workspace.apiKey })).body.data.payments[0];
    const refund = () => post(`/v1/invoices/${id}/payments/${first.id}/refunds`, { amount: 1, idempotencyKey: 'refund-1', note: 'n'.repeat(2000) });
    const refunded = await refund();
    const refundedAgain = await refund();
    // Assess: dozens of payments fit, then a 422 (never a 500) saying why
    const refused = answers.at(-1);
    expect(answers.length).toBeGreaterThan(30);
    expect(refused?.status).toBe(422);
    expect(refused?.body.error?.message).toMatch(/no room for more payments/);
    // The refund is refused before its reservation: the same request again is refused again, not resumed
    for (const response of [refunded, refundedAgain]) {
      expect(response.status).toBe(422);
      expect(response.body.error.message).toMatch(/no room for more refunds/);
    }
    const stored = (await api.request('GET', `/v1/invoices/${id}`, { key: workspace.apiKey })).body.data;
    expect(stored.payments).toHaveLength(answers.length - 1);
    expect(stored.amountRefunded).toBe(0);
  });
});
