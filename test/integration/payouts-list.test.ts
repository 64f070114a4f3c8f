import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getItem, putItem } from '../../shared/db/conditional.js';
import { newId } from '../../shared/ids.js';
import { toLedgerItem, type LedgerEntry } from '../../shared/ledger/ledger-model.js';
import { payoutItemsBackfill } from '../../shared/ledger/payout-backfill.js';
import { payoutKeys, type Payout } from '../../shared/ledger/payout-model.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { costOf, expectFlatCost, idsByCursor, idsByPages } from './support/list-costs.js';
import { seedPayouts } from './support/payouts-seed.js';

/**
 * `GET /v1/payouts` and `GET /v1/payouts/{payoutId}`: newest first, every filter combination read
 * from its own partition (one Query of exactly the matches), cursors equal page numbers, a page costs
 * the same with 10x the payouts and on a deep cursor page; a foreign workspace holds payouts with the
 * same currency and event values.
 */

let api: TestApi;
let ws: TestWorkspace;
let foreign: TestWorkspace;
let small: TestWorkspace;
let large: TestWorkspace;
let eventA: string;
let eventB: string;
/** The payouts of `ws`, in creation order, as POST answered them. */
const made: Payout[] = [];
let previousDelay: string | undefined;

async function createEvent(workspace: TestWorkspace, name: string): Promise<string> {
  const start = new Date(Date.now() + 7 * 86_400_000);
  const response = await api.request('POST', '/v1/events', {
    key: workspace.apiKey,
    body: { name, start: start.toISOString(), end: new Date(start.getTime() + 3_600_000).toISOString(), products: [{ name: 'Ticket', price: 1_000, required: true }] },
  });
  expect(response.status).toBe(201);
  return response.body.data.id;
}

/** An invoice of `total` for `eventId`, paid in full: the money settles at once in this file. */
async function fund(workspace: TestWorkspace, currency: 'USD' | 'CAD', eventId: string, total: number): Promise<void> {
  const contact = await api.request('POST', '/v1/contacts', { key: workspace.apiKey, body: { email: `p-${newId()}@example.com` } });
  const invoice = await api.request('POST', '/v1/invoices', {
    key: workspace.apiKey,
    body: { customerId: contact.body.data.id, currency, lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: total, eventId }] },
  });
  expect((await api.request('POST', `/v1/invoices/${invoice.body.data.id}/finalize`, { key: workspace.apiKey })).status).toBe(200);
  const paid = await api.request('POST', `/v1/invoices/${invoice.body.data.id}/payments`, { key: workspace.apiKey, body: { amount: total, idempotencyKey: newId() } });
  expect(paid.status).toBe(201);
}

async function payOut(body: { currency: 'USD' | 'CAD'; amount: number; eventId?: string }): Promise<void> {
  const response = await api.request('POST', '/v1/payouts', { key: ws.apiKey, body });
  expect(response.status).toBe(201);
  made.push(response.body.data);
}

const newestFirst = (payouts: readonly Payout[]) => [...payouts].reverse().map((payout) => payout.id);
const get = (workspace: TestWorkspace, path: string) => api.request('GET', path, { key: workspace.apiKey });

beforeAll(async () => {
  previousDelay = process.env.SETTLEMENT_DELAY_SECONDS;
  process.env.SETTLEMENT_DELAY_SECONDS = '0';
  api = await startApi();
  [ws, foreign, small, large] = await Promise.all([
    api.newWorkspace('Payouts list'), api.newWorkspace('Payouts foreign'), api.newWorkspace('Payouts 1x'), api.newWorkspace('Payouts 10x'),
  ]);
  eventA = await createEvent(ws, 'Event A');
  eventB = await createEvent(ws, 'Event B');
  await fund(ws, 'USD', eventA, 100_000);
  await fund(ws, 'CAD', eventB, 100_000);
  for (const body of [
    { currency: 'USD', amount: 1_000 }, { currency: 'USD', amount: 1_100, eventId: eventA }, { currency: 'CAD', amount: 1_200, eventId: eventB },
    { currency: 'USD', amount: 1_300, eventId: eventA }, { currency: 'CAD', amount: 1_400 }, { currency: 'USD', amount: 1_500 },
    { currency: 'CAD', amount: 1_600, eventId: eventB }, { currency: 'USD', amount: 1_700, eventId: eventA },
  ] as const) await payOut(body);
  // The same filter values in another workspace (seeded: the event ids are not the foreign workspace's).
  const cycle = [{ currency: 'USD' as const }, { currency: 'USD' as const, eventId: eventA }, { currency: 'CAD' as const, eventId: eventB }];
  await seedPayouts(foreign.workspaceId, 9, { of: (index) => cycle[index % 3] as (typeof cycle)[number] });
  await Promise.all([
    seedPayouts(small.workspaceId, 12, { of: (index) => cycle[index % 3] as (typeof cycle)[number] }),
    seedPayouts(large.workspaceId, 120, { of: (index) => cycle[index % 3] as (typeof cycle)[number] }),
  ]);
}, 180_000);
afterAll(async () => {
  if (previousDelay === undefined) delete process.env.SETTLEMENT_DELAY_SECONDS;
  else process.env.SETTLEMENT_DELAY_SECONDS = previousDelay;
  await api.close();
});

describe('GET /v1/payouts', () => {
  it('lists the workspace\'s payouts newest first, as POST answered them, and oldest first with direction=asc', async () => {
    const first = await get(ws, '/v1/payouts?limit=100');
    const ascending = await idsByPages(api, ws.apiKey, '/v1/payouts?direction=asc', 3);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual([...made].reverse());
    expect(first.body).toMatchObject({ page: 0, limit: 100, total: made.length, hasMore: false, nextCursor: null });
    expect(ascending).toEqual(made.map((payout) => payout.id));
  });

  it('visits by nextCursor exactly the payouts and order that page numbers give', async () => {
    for (const path of ['/v1/payouts', '/v1/payouts?direction=asc', `/v1/payouts?eventId=${eventA}`]) {
      const byPages = await idsByPages(api, ws.apiKey, path, 3);
      expect(await idsByCursor(api, ws.apiKey, path, 3)).toEqual(byPages);
    }
  });

  it.each([
    { query: () => 'currency=USD', matches: (p: Payout) => p.currency === 'USD' },
    { query: () => 'currency=CAD', matches: (p: Payout) => p.currency === 'CAD' },
    { query: () => `eventId=${eventA}`, matches: (p: Payout) => p.eventId === eventA },
    { query: () => `currency=CAD&eventId=${eventB}`, matches: (p: Payout) => p.currency === 'CAD' && p.eventId === eventB },
    { query: () => `currency=CAD&eventId=${eventA}`, matches: () => false },
  ])('serves $query from its own partition: one Query of exactly the matches, never a foreign payout', async ({ query, matches }) => {
    const response = await get(ws, `/v1/payouts?${query()}&limit=100`);
    const expected = newestFirst(made.filter(matches));
    expect(response.body.data.map((payout: Payout) => payout.id)).toEqual(expected);
    expect(costOf(response)).toMatchObject({ calls: 1, items: expected.length });
  });

  it.each(['', 'currency=USD', 'eventId=EVENT', 'currency=CAD&eventId=EVENT'])('costs one Query of limit + 1 payouts for "%s" with 10x the payouts and on a deep cursor page', async (filter) => {
    // Seeded with the ws's event ids: the filter values are plain strings to the seeding.
    const query = filter.replace('EVENT', filter.includes('CAD') ? eventB : eventA);
    const path = `/v1/payouts${query ? `?${query}` : ''}`;
    await expectFlatCost(api, { small: { key: small.apiKey, path }, large: { key: large.apiKey, path } }, 2, { calls: 1, items: 3 });
  });

  it('refuses a cursor of another workspace or another filter, page numbers 10,000 deep and a malformed eventId with 400 invalid_query', async () => {
    const mine = await get(ws, '/v1/payouts?limit=1');
    const cursor = encodeURIComponent(mine.body.nextCursor);
    const fromForeign = await get(foreign, `/v1/payouts?limit=1&cursor=${cursor}`);
    const otherFilter = await get(ws, `/v1/payouts?limit=1&currency=USD&cursor=${cursor}`);
    const deep = await get(ws, '/v1/payouts?page=100&limit=100');
    const badCurrency = await get(ws, '/v1/payouts?currency=EUR');
    const badEvent = await get(ws, '/v1/payouts?eventId=zz');
    for (const response of [fromForeign, otherFilter, deep, badCurrency, badEvent]) {
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_query');
    }
    expect(badEvent.body.error.details).toEqual([expect.objectContaining({ path: 'eventId' })]);
    expect(fromForeign.body.error.details).toEqual([expect.objectContaining({ path: 'cursor' })]);
    expect(deep.body.error.details[0].message).toContain('cursor');
  });
});

describe('GET /v1/payouts/{payoutId}', () => {
  it('answers the payout as POST did, with one read', async () => {
    const payout = made[1] as Payout;
    const response = await get(ws, `/v1/payouts/${payout.id}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(payout);
    expect(response.body.data).toMatchObject({ currency: 'USD', amount: 1_100, eventId: eventA, status: 'paid' });
    expect(costOf(response)).toMatchObject({ calls: 1, items: 1 });
  });

  it('is 404 for another workspace\'s payout, an unknown id and a malformed id', async () => {
    const responses = await Promise.all([
      get(foreign, `/v1/payouts/${(made[0] as Payout).id}`),
      get(ws, `/v1/payouts/${newId()}`),
      get(ws, '/v1/payouts/not-an-id'),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
  });
});

describe('payouts backfill', () => {
  it('gives a payout made before the payout items existed (only its ledger entry) its item and list entries; a second run changes nothing', async () => {
    // Prepare: the ledger entry exactly as the previous code booked a payout
    const workspace = await api.newWorkspace('Payout backfill');
    const eventId = await createEvent(workspace, 'Legacy event');
    const createdAt = new Date().toISOString();
    const id = newId();
    const entry: LedgerEntry = {
      id, type: 'payout', currency: 'CAD', gross: 0, platformFee: 0, processorFee: 0, fees: 0, refundedAmount: 0, paidOut: 2_500, net: -2_500,
      eventId, payoutId: id, availableAt: createdAt, createdAt,
    };
    const item = toLedgerItem(workspace.workspaceId, entry);
    await putItem(item);
    const before = await get(workspace, `/v1/payouts/${id}`);
    // Act
    const written = await payoutItemsBackfill.rebuild(item);
    const stored = await getItem(payoutKeys.payout(workspace.workspaceId, id), { consistent: true });
    const again = await payoutItemsBackfill.rebuild(item);
    const storedAgain = await getItem(payoutKeys.payout(workspace.workspaceId, id), { consistent: true });
    // Assess
    expect(before.status).toBe(404);
    expect([written, again]).toEqual([5, 5]);
    expect(storedAgain).toEqual(stored);
    const expected = { id, currency: 'CAD', amount: 2_500, eventId, status: 'paid', ledgerEntryId: id, createdAt };
    expect((await get(workspace, `/v1/payouts/${id}`)).body.data).toEqual(expected);
    for (const query of ['', '?currency=CAD', `?eventId=${eventId}`, `?currency=CAD&eventId=${eventId}`]) {
      expect((await get(workspace, `/v1/payouts${query}`)).body.data).toEqual([expected]);
    }
  });

  it('leaves other ledger entries alone', async () => {
    const createdAt = new Date().toISOString();
    const entry: LedgerEntry = {
      id: newId(), type: 'payment', currency: 'USD', gross: 1_000, platformFee: 10, processorFee: 0, fees: 10, refundedAmount: 0, paidOut: 0, net: 990,
      availableAt: createdAt, createdAt,
    };
    expect(await payoutItemsBackfill.rebuild(toLedgerItem(ws.workspaceId, entry))).toBe(0);
  });
});
