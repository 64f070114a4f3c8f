import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listLedgerEntries } from '../../shared/ledger/ledger-repository.js';
import { createPayout, getBalance } from '../../shared/ledger/payouts-service.js';
import { usePaymentProcessor } from '../../shared/payments/processor-registry.js';
import { sandboxProcessor } from '../../shared/payments/sandbox-processor.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { eventIdsOf } from './support/event-ids.js';

let api: TestApi;
let previousDelay: string | undefined;

beforeAll(async () => {
  // The sandbox default: money stays pending for 2 days.
  previousDelay = process.env.SETTLEMENT_DELAY_SECONDS;
  process.env.SETTLEMENT_DELAY_SECONDS = String(2 * 24 * 3600);
  api = await startApi();
});
afterAll(async () => {
  if (previousDelay === undefined) delete process.env.SETTLEMENT_DELAY_SECONDS;
  else process.env.SETTLEMENT_DELAY_SECONDS = previousDelay;
  await api.close();
});

const eventOf = eventIdsOf(() => api);

/** A workspace whose contact pays a card-charged invoice of `amount` for the event labelled `event` at finalize. */
async function chargedInvoice(ws: TestWorkspace, amount: number, event: string, currency = 'USD') {
  const eventId = await eventOf(ws, event);
  const contact = await api.request('POST', '/v1/contacts', { key: ws.apiKey, body: { email: `b-${Math.random().toString(16).slice(2)}@example.com`, defaultPaymentMethod: 'pm_card_visa' } });
  const created = await api.request('POST', '/v1/invoices', {
    key: ws.apiKey,
    body: { customerId: contact.body.data.id, currency, autoCharge: true, lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: amount, eventId }] },
  });
  const finalized = await api.request('POST', `/v1/invoices/${created.body.data.id}/finalize`, { key: ws.apiKey });
  expect(finalized.body.data.status).toBe('paid');
  return finalized.body.data;
}

const balance = async (ws: TestWorkspace, query = '') => (await api.request('GET', `/v1/events/balance${query}`, { key: ws.apiKey })).body.data;

describe('GET /v1/events/balance', () => {
  it('is an empty list for a workspace that never took money', async () => {
    const ws = await api.newWorkspace('No money');
    const response = await api.request('GET', '/v1/events/balance', { key: ws.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [] });
  });

  it('keeps a card payment pending with fees from the schedule during the settlement delay', async () => {
    // Prepare
    const ws = await api.newWorkspace('Pending');
    const invoice = await chargedInvoice(ws, 10_000, 'evt-pending');
    // Act
    const [entry] = await balance(ws);
    // Assess: platform 1 % = 100, processor 2.9 % + 30 = 320
    expect(entry.currency).toBe('USD');
    expect(entry.pending_balance).toMatchObject({ balance: 9_580, net: 9_580, gross: 10_000, fees: 420, currency: 'USD' });
    expect(entry.available_balance).toMatchObject({ balance: 0, gross: 0, currency: null, orders: [] });
    expect(entry.instant_balance).toEqual(entry.available_balance);
    expect(entry.paid_out_balance).toBeUndefined();
    expect(entry.pending_balance.orders).toEqual([expect.objectContaining({
      type: 'payment', gross: 10_000, fees: 420, platformFee: 100, processorFee: 320, refundedAmount: 0,
      latest_charge: invoice.payments[0].chargeId, event_id: await eventOf(ws, 'evt-pending'), invoice_id: invoice.id,
    })]);
  });

  it('scopes to one event and adds paid_out_balance, per currency', async () => {
    // Prepare
    const ws = await api.newWorkspace('Per event');
    await chargedInvoice(ws, 5_000, 'evt-a');
    await chargedInvoice(ws, 7_000, 'evt-b');
    await chargedInvoice(ws, 3_000, 'evt-a', 'CAD');
    // Act
    const account = await balance(ws);
    const eventA = await balance(ws, `?eventId=${await eventOf(ws, 'evt-a')}`);
    // Assess
    expect(account.map((entry: { currency: string }) => entry.currency)).toEqual(['USD', 'CAD']);
    expect(account[0].pending_balance.gross).toBe(12_000);
    expect(eventA.map((entry: { currency: string }) => entry.currency)).toEqual(['USD', 'CAD']);
    expect(eventA[0].pending_balance.gross).toBe(5_000);
    expect(eventA[1].pending_balance.gross).toBe(3_000);
    expect(eventA[0].paid_out_balance).toMatchObject({ balance: 0, currency: null, orders: [] });
  });

  it('takes a refund of pending money out of pending, and equals the sum of its ledger', async () => {
    // Prepare
    const ws = await api.newWorkspace('Refund pending');
    const invoice = await chargedInvoice(ws, 2_000, 'evt-r');
    // Act
    const refund = await api.request('POST', `/v1/invoices/${invoice.id}/payments/${invoice.payments[0].id}/refunds`, {
      key: ws.apiKey, body: { amount: 500, idempotencyKey: 'r' },
    });
    const [entry] = await balance(ws);
    // Assess
    expect(refund.status).toBe(201);
    const ledger = await listLedgerEntries(ws.workspaceId, 'USD');
    const ledgerNet = ledger.reduce((sum, item) => sum + item.net, 0);
    expect(entry.pending_balance.balance + entry.available_balance.balance).toBe(ledgerNet);
    expect(entry.pending_balance.net).toBe(2_000 - 108 - 500);
    expect(entry.pending_balance.orders.map((order: { type: string }) => order.type)).toEqual(['refund', 'payment']);
  });

  it('refuses a payout of money that is still pending', async () => {
    const ws = await api.newWorkspace('Payout pending');
    await chargedInvoice(ws, 2_000, 'evt-p');
    const response = await api.request('POST', '/v1/payouts', { key: ws.apiKey, body: { currency: 'USD', amount: 1 } });
    expect(response.status).toBe(422);
    expect(response.body.error.details[0].path).toBe('amount');
  });

  it('makes money available within a minute of paidAt + the delay, not at the end of its hour, for balances and payouts', async () => {
    // Prepare: a manual payment made so that its money is due in 10 minutes (1 % platform fee only).
    const ws = await api.newWorkspace('Settles to the minute');
    const eventId = await eventOf(ws, 'evt-minute');
    const contact = await api.request('POST', '/v1/contacts', { key: ws.apiKey, body: { email: `m-${Math.random().toString(16).slice(2)}@example.com` } });
    const created = await api.request('POST', '/v1/invoices', {
      key: ws.apiKey, body: { customerId: contact.body.data.id, currency: 'USD', lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: 10_000, eventId }] },
    });
    await api.request('POST', `/v1/invoices/${created.body.data.id}/finalize`, { key: ws.apiKey });
    const paidAt = new Date(Date.now() - 2 * 24 * 3600_000 + 10 * 60_000);
    const paid = await api.request('POST', `/v1/invoices/${created.body.data.id}/payments`, { key: ws.apiKey, body: { amount: 10_000, idempotencyKey: 'minute', paidAt: paidAt.toISOString() } });
    expect(paid.status).toBe(201);
    const [entry] = (await listLedgerEntries(ws.workspaceId, 'USD')).filter((ledger) => ledger.type === 'payment');
    const due = Date.parse(entry?.availableAt ?? '');
    // Due within a minute after paidAt + 2 days, not rounded up to the hour.
    expect(due - (paidAt.getTime() + 2 * 24 * 3600_000)).toBeGreaterThanOrEqual(0);
    expect(due - (paidAt.getTime() + 2 * 24 * 3600_000)).toBeLessThan(60_000);

    // Act: the balance a second before and a second after it is due (the hour has not ended unless due on it), then payouts.
    const [before] = await getBalance(ws.workspaceId, undefined, new Date(due - 1_000));
    const [after] = await getBalance(ws.workspaceId, undefined, new Date(due + 1_000));
    const [eventAfter] = await getBalance(ws.workspaceId, eventId, new Date(due + 1_000));
    const payout = await createPayout(ws.workspaceId, { currency: 'USD', amount: 9_900, eventId }, new Date(due + 1_000));

    // Assess
    expect(before?.pending_balance).toMatchObject({ balance: 9_900, gross: 10_000 });
    expect(before?.available_balance.balance).toBe(0);
    expect(after?.available_balance).toMatchObject({ balance: 9_900, gross: 10_000, fees: 100 });
    expect(after?.pending_balance).toMatchObject({ balance: 0, gross: 0 });
    expect(eventAfter?.instant_balance.balance).toBe(9_900);
    expect(payout).toMatchObject({ amount: 9_900, eventId });
    const [settled] = await getBalance(ws.workspaceId, undefined, new Date(due + 2_000));
    expect(settled?.available_balance.balance).toBe(0);
    expect(settled?.pending_balance.balance).toBe(0);
  });

  it('answers 400 invalid_query for an unknown query parameter', async () => {
    const ws = await api.newWorkspace('Bad query');
    const response = await api.request('GET', '/v1/events/balance?event=1', { key: ws.apiKey });
    expect(response.status).toBe(400);
  });

  it('answers 400 invalid_query on eventId for a malformed event id, and an empty balance for an unknown one', async () => {
    // Prepare
    const ws = await api.newWorkspace('Bad event id');
    // Act
    const malformed = await api.request('GET', '/v1/events/balance?eventId=bad', { key: ws.apiKey });
    const unknown = await api.request('GET', '/v1/events/balance?eventId=bbbbbbbbbbbbbbbbbbbbbbbb', { key: ws.apiKey });
    // Assess
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'invalid_query', details: [{ path: 'eventId' }] });
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toEqual([]);
  });
});

describe('the bound on a workspace\'s booked gross (every balance figure stays an exact JSON number)', () => {
  const MAX = Number.MAX_SAFE_INTEGER;

  /** An open invoice of `amount` for a contact with a saved card (charged only when asked). */
  async function openInvoice(ws: TestWorkspace, amount: number, autoCharge = false) {
    const contact = await api.request('POST', '/v1/contacts', { key: ws.apiKey, body: { email: `m-${Math.random().toString(16).slice(2)}@example.com`, defaultPaymentMethod: 'pm_card_visa' } });
    const created = await api.request('POST', '/v1/invoices', {
      key: ws.apiKey,
      body: { customerId: contact.body.data.id, currency: 'USD', autoCharge, lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: amount }] },
    });
    return created.body.data.id as string;
  }

  it('takes payments up to 9007199254740991 minor units in all and refuses the one past it with 422, recording and charging nothing', async () => {
    // Prepare: one payment of all but one unit, then one of the last unit (settled and pending bookings alike)
    const ws = await api.newWorkspace('Bounded gross');
    const first = await openInvoice(ws, MAX - 1);
    await api.request('POST', `/v1/invoices/${first}/finalize`, { key: ws.apiKey });
    const settledPaidAt = new Date(Date.now() - 3 * 24 * 3600 * 1000).toISOString();
    expect((await api.request('POST', `/v1/invoices/${first}/payments`, { key: ws.apiKey, body: { amount: MAX - 1, idempotencyKey: 'a', paidAt: settledPaidAt } })).status).toBe(201);
    const last = await openInvoice(ws, 2);
    await api.request('POST', `/v1/invoices/${last}/finalize`, { key: ws.apiKey });
    expect((await api.request('POST', `/v1/invoices/${last}/payments`, { key: ws.apiKey, body: { amount: 1, idempotencyKey: 'b' } })).status).toBe(201);
    const charged = await openInvoice(ws, 1, true);
    const charges: number[] = [];
    usePaymentProcessor({ ...sandboxProcessor, charge: async (request) => { charges.push(request.amount); return sandboxProcessor.charge(request); } });
    // Act
    const over = await api.request('POST', `/v1/invoices/${last}/payments`, { key: ws.apiKey, body: { amount: 1, idempotencyKey: 'c' } });
    const finalized = await api.request('POST', `/v1/invoices/${charged}/finalize`, { key: ws.apiKey }).finally(() => usePaymentProcessor(undefined));
    // Assess: nothing of either was written, and the balance shows the exact sums
    expect(over.status).toBe(422);
    expect(over.body.error.details).toEqual([expect.objectContaining({ path: 'amount', message: expect.stringContaining('9007199254740991') })]);
    expect(finalized.status).toBe(422);
    expect(charges).toEqual([]);
    expect((await api.request('GET', `/v1/invoices/${last}`, { key: ws.apiKey })).body.data).toMatchObject({ amountDue: 1, payments: [expect.objectContaining({ amount: 1 })] });
    expect((await api.request('GET', `/v1/invoices/${charged}`, { key: ws.apiKey })).body.data).toMatchObject({ status: 'draft', payments: [] });
    const [entry] = await balance(ws);
    expect(entry.available_balance.gross + entry.pending_balance.gross).toBe(MAX);
    expect(entry.available_balance.gross).toBe(MAX - 1);
    expect(entry.pending_balance.gross).toBe(1);
  });
});
