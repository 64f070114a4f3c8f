import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutRecord } from '../../shared/checkouts/checkout-model.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { checkoutShape, seedCheckouts } from './support/checkouts-seed.js';
import { dbStats, type DbStats } from './support/db-stats.js';

/**
 * What a page of GET /v1/checkouts costs (README "Data model", checkouts rows): the same for 10x the
 * checkouts, and the same for a page reached by cursor as for page 0, on every index path. A foreign
 * workspace with the same data is present throughout.
 */

let api: TestApi;
let small: TestWorkspace;
let large: TestWorkspace;
let foreign: TestWorkspace;
const eventOf = new Map<TestWorkspace, string>();

async function seed(workspace: TestWorkspace, count: number) {
  const created = await api.request('POST', '/v1/events', { key: workspace.apiKey, body: { name: 'Cost event', start: '2030-01-01T10:00:00Z', end: '2030-01-01T12:00:00Z' } });
  const eventId = created.body.data.id as string;
  eventOf.set(workspace, eventId);
  // Every checkout looks alike in size; a quarter have the event, a fifth a timeslot.
  await seedCheckouts(workspace.workspaceId, count, {
    fields: (index): Partial<CheckoutRecord> => ({ ...checkoutShape(index), ...(index % 4 === 0 ? { eventId } : {}) }),
    names: (index) => (index % 4 === 0 ? { event: 'Cost event' } : {}),
  });
}

beforeAll(async () => {
  api = await startApi();
  [small, large, foreign] = await Promise.all([api.newWorkspace('Checkout cost 1x'), api.newWorkspace('Checkout cost 10x'), api.newWorkspace('Checkout cost foreign')]);
  await seed(small, 40);
  await seed(foreign, 40);
  await seed(large, 400);
}, 300_000);
afterAll(async () => api.close());

const list = (workspace: TestWorkspace, query: string) => api.request('GET', `/v1/checkouts?${query}`, { key: workspace.apiKey });

/** Every index path of the list, each with a page size that leaves several pages in the 1x workspace. */
const PATHS: [string, (workspace: TestWorkspace) => string][] = [
  ['default order (createdAt, newest first)', () => 'pageSize=5'],
  ['sort by name', () => 'sortField=name&pageSize=5'],
  ['sort by description (with, then without a value)', () => 'sortField=description&sortDirection=desc&pageSize=5'],
  ['sort by event name', () => 'sortField=event&pageSize=5'],
  ['sort by _id', () => 'sortField=_id&pageSize=5'],
  ['status (4 cells merged)', () => 'status=closed&pageSize=5'],
  ['visibility and isEventSet (2 cells merged)', () => `filters=${encodeURIComponent('[{"field":"visibility","op":"eq","value":"private"},{"field":"isEventSet","op":"eq","value":false}]')}&sortField=updatedAt&pageSize=3`],
  ['eventId (event partition)', (workspace) => `eventId=${eventOf.get(workspace)}&sortField=name&pageSize=3`],
  ['timeslotId (timeslot partition)', () => 'timeslotId=slot-x&sortField=productsCount&pageSize=2'],
  ['productsCount range on its own sort (key range)', () => `sortField=productsCount&filters=${encodeURIComponent('[{"field":"productsCount","op":"gte","value":2}]')}&pageSize=5`],
];

async function cursorPage(workspace: TestWorkspace, query: string, hops: number): Promise<DbStats> {
  let response = await list(workspace, query);
  for (let hop = 0; hop < hops; hop += 1) {
    expect(response.body.nextCursor).toEqual(expect.any(String));
    response = await list(workspace, `${query}&cursor=${encodeURIComponent(response.body.nextCursor)}`);
  }
  expect(response.status).toBe(200);
  return dbStats(response);
}

describe('GET /v1/checkouts cost per page', () => {
  it.each(PATHS)('%s: 10x the checkouts cost no more than 1.1x for page 0', async (_label, query) => {
    const one = dbStats(await list(small, query(small)));
    const ten = dbStats(await list(large, query(large)));
    expect(ten.calls).toBe(one.calls);
    expect(ten.items).toBeLessThanOrEqual(one.items * 1.1);
    expect(ten.rcu).toBeLessThanOrEqual(one.rcu * 1.1);
  });

  it.each(PATHS)('%s: a page reached by cursor costs what page 0 costs', async (_label, query) => {
    const first = await cursorPage(large, query(large), 0);
    const deep = await cursorPage(large, query(large), 3);
    expect(deep.calls).toBe(first.calls);
    expect(deep.items).toBeLessThanOrEqual(first.items * 1.1);
    expect(deep.rcu).toBeLessThanOrEqual(first.rcu * 1.1);
  });

  it('reports for a create the write units DynamoDB charges: the checkout and its 20 projections, 2 WCU each in a transaction', async () => {
    // DynamoDB Local itself reports 2 for any TransactWriteItems; the local server counts what DynamoDB charges.
    const created = await api.request('POST', '/v1/checkouts', { key: small.apiKey, body: { name: 'Cost of a create' } });
    expect(created.status).toBe(201);
    expect(dbStats(created).wcu).toBeGreaterThanOrEqual(2 * 21);
  });

  it('reads the projections of the page and one BatchGet of its checkouts, nothing per checkout', async () => {
    // Default order, no event on the page's checkouts read: 1 Query of pageSize + 1 projections, 1 BatchGet.
    const stats = dbStats(await list(large, 'pageSize=5&sortField=_id&sortDirection=asc&filters=%5B%7B%22field%22%3A%22isEventSet%22%2C%22op%22%3A%22eq%22%2C%22value%22%3Afalse%7D%2C%7B%22field%22%3A%22status%22%2C%22op%22%3A%22eq%22%2C%22value%22%3A%22open%22%7D%2C%7B%22field%22%3A%22visibility%22%2C%22op%22%3A%22eq%22%2C%22value%22%3A%22private%22%7D%5D'));
    expect(stats).toMatchObject({ calls: 2, items: 6 + 5 });
  });
});
