import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listLedgerEntries } from '../../shared/ledger/ledger-repository.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { eventIdsOf } from './support/event-ids.js';

let api: TestApi;
let previousDelay: string | undefined;

beforeAll(async () => {
  // A processor that settles at once, so payouts can spend what payments bring.
  previousDelay = process.env.SETTLEMENT_DELAY_SECONDS;
  process.env.SETTLEMENT_DELAY_SECONDS = '0';
  api = await startApi();
});
afterAll(async () => {
  if (previousDelay === undefined) delete process.env.SETTLEMENT_DELAY_SECONDS;
  else process.env.SETTLEMENT_DELAY_SECONDS = previousDelay;
  await api.close();
});

/** The workspace's event that invoices sell and payouts are scoped to. */
const eventOf = eventIdsOf(() => api);

/** An open invoice of `total` cents for the workspace's event, ready to take manual payments. */
async function openInvoice(ws: TestWorkspace, total: number): Promise<string> {
  const eventId = await eventOf(ws);
  const contact = await api.request('POST', '/v1/contacts', { key: ws.apiKey, body: { email: `p-${Math.random().toString(16).slice(2)}@example.com` } });
  const created = await api.request('POST', '/v1/invoices', {
    key: ws.apiKey,
    body: { customerId: contact.body.data.id, currency: 'USD', lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: total, eventId }] },
  });
  await api.request('POST', `/v1/invoices/${created.body.data.id}/finalize`, { key: ws.apiKey });
  return created.body.data.id;
}

async function pay(ws: TestWorkspace, invoiceId: string, amount: number) {
  return api.request('POST', `/v1/invoices/${invoiceId}/payments`, { key: ws.apiKey, body: { amount, idempotencyKey: `k-${Math.random()}` } });
}

const balanceOf = async (ws: TestWorkspace, query = '') => (await api.request('GET', `/v1/events/balance${query}`, { key: ws.apiKey })).body.data;

describe('POST /v1/payouts', () => {
  it('moves available money to paid out, account-wide and for an event', async () => {
    // Prepare: manual payment of 10000 pays the platform fee only (1 % = 100)
    const ws = await api.newWorkspace('Payouts');
    const invoiceId = await openInvoice(ws, 10_000);
    await pay(ws, invoiceId, 10_000);
    const eventId = await eventOf(ws);
    // Act
    const payout = await api.request('POST', '/v1/payouts', { key: ws.apiKey, body: { currency: 'USD', amount: 4_000, eventId } });
    const [account] = await balanceOf(ws);
    const [event] = await balanceOf(ws, `?eventId=${eventId}`);
    // Assess
    expect(payout.status).toBe(201);
    expect(payout.body.data).toMatchObject({ currency: 'USD', amount: 4_000, eventId, status: 'paid' });
    expect(account.available_balance).toMatchObject({ balance: 5_900, net: 9_900, gross: 10_000, fees: 100, currency: 'USD' });
    expect(account.pending_balance).toMatchObject({ balance: 0, currency: null });
    expect(event.paid_out_balance).toMatchObject({ balance: 4_000, currency: 'USD' });
    expect(event.paid_out_balance.orders).toEqual([expect.objectContaining({ type: 'payout', net: -4_000 })]);
  });

  it('is 422 above the available balance', async () => {
    const ws = await api.newWorkspace('Payout too much');
    const invoiceId = await openInvoice(ws, 1_000);
    await pay(ws, invoiceId, 1_000);
    const response = await api.request('POST', '/v1/payouts', { key: ws.apiKey, body: { currency: 'USD', amount: 991 } });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
  });

  it('shows an event no more instant money than the account can pay out after account-wide payouts, and says which balance is short', async () => {
    // Prepare: 4950 net on the event, then an account-wide payout of all of it.
    const ws = await api.newWorkspace('Payout account first');
    const invoiceId = await openInvoice(ws, 5_000);
    await pay(ws, invoiceId, 5_000);
    const eventId = await eventOf(ws);
    const accountWide = await api.request('POST', '/v1/payouts', { key: ws.apiKey, body: { currency: 'USD', amount: 4_900 } });
    expect(accountWide.status).toBe(201);

    // Act
    const [event] = await balanceOf(ws, `?eventId=${eventId}`);
    const tooMuch = await api.request('POST', '/v1/payouts', { key: ws.apiKey, body: { currency: 'USD', amount: 51, eventId } });
    const allThereIs = await api.request('POST', '/v1/payouts', { key: ws.apiKey, body: { currency: 'USD', amount: 50, eventId } });
    // Money for the account that is no event's (a line without eventId): now the event is the short one.
    const contact = await api.request('POST', '/v1/contacts', { key: ws.apiKey, body: { email: 'no-event@example.com' } });
    const other = await api.request('POST', '/v1/invoices', {
      key: ws.apiKey, body: { customerId: contact.body.data.id, currency: 'USD', lineItems: [{ description: 'Donation', quantity: 1, unitAmount: 10_000 }] },
    });
    await api.request('POST', `/v1/invoices/${other.body.data.id}/finalize`, { key: ws.apiKey });
    await pay(ws, other.body.data.id, 10_000);
    const eventShort = await api.request('POST', '/v1/payouts', { key: ws.apiKey, body: { currency: 'USD', amount: 4_901, eventId } });

    // Assess: the event's own money is still 4950, but only 50 can move now.
    expect(event.available_balance).toMatchObject({ balance: 4_950, net: 4_950 });
    expect(event.instant_balance).toMatchObject({ balance: 50, net: 4_950 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error.details).toEqual([{ path: 'amount', message: expect.stringContaining('account') }]);
    expect(allThereIs.status).toBe(201);
    expect(eventShort.status).toBe(422);
    expect(eventShort.body.error.details).toEqual([{ path: 'amount', message: expect.stringMatching(/balance of the event$/) }]);
  });

  it('never pays out more than available under concurrent payouts', async () => {
    // Prepare: 990 available
    const ws = await api.newWorkspace('Payout race');
    const invoiceId = await openInvoice(ws, 1_000);
    await pay(ws, invoiceId, 1_000);
    // Act: 6 x 300, only 3 fit
    const responses = await Promise.all(Array.from({ length: 6 }, () => api.request('POST', '/v1/payouts', { key: ws.apiKey, body: { currency: 'USD', amount: 300 } })));
    // Assess
    expect(responses.filter((response) => response.status === 201)).toHaveLength(3);
    const [entry] = await balanceOf(ws);
    expect(entry.available_balance.balance).toBe(90);
  });
});

function dbStats(header: string | null): { calls: number; items: number } {
  const match = /calls=(\d+);.*items=(\d+)/.exec(header ?? '');
  return { calls: Number(match?.[1]), items: Number(match?.[2]) };
}

describe('GET /v1/events/balance cost', () => {
  it('reads the same number of items after 1 and after 15 payments', async () => {
    // Prepare
    const ws = await api.newWorkspace('Balance cost');
    const invoiceId = await openInvoice(ws, 100_000);
    await pay(ws, invoiceId, 100);
    const afterOne = await api.request('GET', '/v1/events/balance', { key: ws.apiKey });
    for (let i = 0; i < 14; i += 1) await pay(ws, invoiceId, 100);
    // Act
    const afterMany = await api.request('GET', '/v1/events/balance', { key: ws.apiKey });
    // Assess: aggregates + the capped recent entries (10), never the history
    const one = dbStats(afterOne.headers.get('x-db-stats'));
    const many = dbStats(afterMany.headers.get('x-db-stats'));
    expect(afterMany.body.data[0].available_balance.gross).toBe(1_500);
    expect(many.calls).toBe(one.calls);
    expect(many.items).toBeLessThanOrEqual(one.items + 9);
    expect(afterMany.body.data[0].available_balance.orders).toHaveLength(10);
  });
});

type Step =
  | { kind: 'pay'; amount: number }
  | { kind: 'refund'; payment: number; amount: number }
  | { kind: 'payout'; amount: number; scoped: boolean };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), amount: fc.integer({ min: 1, max: 4_000 }) }),
  fc.record({ kind: fc.constant('refund' as const), payment: fc.nat({ max: 3 }), amount: fc.integer({ min: 1, max: 3_000 }) }),
  fc.record({ kind: fc.constant('payout' as const), amount: fc.integer({ min: 1, max: 3_000 }), scoped: fc.boolean() }),
);

describe('GET /v1/events/balance (property)', () => {
  it('equals the sum of its ledger after any sequence of payments, refunds and payouts', async () => {
    await fc.assert(fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 5 }), async (steps) => {
      // Prepare
      const ws = await api.newWorkspace('Ledger property');
      const invoiceId = await openInvoice(ws, 10_000);
      const eventId = await eventOf(ws);
      const payments: string[] = [];
      let paidOut = 0;
      // Act
      for (const step of steps) {
        if (step.kind === 'pay') {
          const response = await pay(ws, invoiceId, step.amount);
          if (response.status === 201) payments.push(response.body.data.id);
        } else if (step.kind === 'refund' && payments.length > 0) {
          const paymentId = payments[step.payment % payments.length] as string;
          await api.request('POST', `/v1/invoices/${invoiceId}/payments/${paymentId}/refunds`, {
            key: ws.apiKey, body: { amount: step.amount, idempotencyKey: `r-${Math.random()}` },
          });
        } else if (step.kind === 'payout') {
          const response = await api.request('POST', '/v1/payouts', {
            key: ws.apiKey, body: { currency: 'USD', amount: step.amount, ...(step.scoped ? { eventId } : {}) },
          });
          if (response.status === 201) paidOut += step.amount;
        }
      }
      // Assess
      const ledger = await listLedgerEntries(ws.workspaceId, 'USD');
      const sum = (pick: (entry: (typeof ledger)[number]) => number) => ledger.reduce((total, entry) => total + pick(entry), 0);
      const [account] = await balanceOf(ws);
      const [event] = await balanceOf(ws, `?eventId=${eventId}`);
      const eventPayouts = sum((entry) => (entry.type === 'payout' && entry.eventId === eventId ? entry.paidOut : 0));
      if (ledger.length === 0) {
        expect(account).toBeUndefined();
        return;
      }
      expect(account.available_balance.balance + account.pending_balance.balance).toBe(sum((entry) => entry.net));
      expect(account.available_balance.gross + account.pending_balance.gross).toBe(sum((entry) => entry.gross));
      expect(account.available_balance.fees + account.pending_balance.fees).toBe(sum((entry) => entry.fees));
      expect(sum((entry) => entry.paidOut)).toBe(paidOut);
      if (event) {
        expect(event.paid_out_balance.balance).toBe(eventPayouts);
        expect(event.available_balance.net).toBe(sum((entry) => (entry.type === 'payout' ? 0 : entry.net)));
      }
    }), { numRuns: 15 });
  });
});
