import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let ws: TestWorkspace;
let foreign: TestWorkspace;
let alice: string;
let bob: string;
/** Alice's invoices in creation order, and which of them were finalized (open). */
const aliceInvoices: string[] = [];
const aliceOpen: string[] = [];

async function contact(workspace: TestWorkspace, name: string): Promise<string> {
  const response = await api.request('POST', '/v1/contacts', { key: workspace.apiKey, body: { email: `${name}-${Date.now()}-${Math.random()}@example.com` } });
  expect(response.status).toBe(201);
  return response.body.data.id;
}

async function invoice(workspace: TestWorkspace, customerId: string, finalize = false): Promise<string> {
  const created = await api.request('POST', '/v1/invoices', {
    key: workspace.apiKey, body: { customerId, currency: 'USD', lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: 1000 }] },
  });
  expect(created.status).toBe(201);
  if (finalize) expect((await api.request('POST', `/v1/invoices/${created.body.data.id}/finalize`, { key: workspace.apiKey })).status).toBe(200);
  return created.body.data.id;
}

const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((item) => item.id);
const stats = (response: { headers: Headers }) => {
  const match = /calls=(\d+);rcu=([\d.]+);wcu=[\d.]+;items=(\d+)/.exec(response.headers.get('x-db-stats') ?? '');
  return { calls: Number(match?.[1]), rcu: Number(match?.[2]), items: Number(match?.[3]) };
};

beforeAll(async () => {
  api = await startApi();
  ws = await api.newWorkspace('Invoice cursors');
  foreign = await api.newWorkspace('Invoice cursors, foreign');
  alice = await contact(ws, 'alice');
  bob = await contact(ws, 'bob');
  for (let index = 0; index < 7; index += 1) {
    const open = index % 2 === 0;
    const id = await invoice(ws, alice, open);
    aliceInvoices.push(id);
    if (open) aliceOpen.push(id);
    await invoice(ws, bob, open);
  }
  // Foreign data under the same filter values must never show up or cost anything.
  const foreignContact = await contact(foreign, 'carol');
  for (let index = 0; index < 3; index += 1) await invoice(foreign, foreignContact, true);
}, 120_000);
afterAll(async () => api.close());

describe('GET /v1/invoices with cursors', () => {
  it('visits by nextCursor exactly the items and order that page numbers give', async () => {
    const byPage: string[] = [];
    for (let page = 0; ; page += 1) {
      const response = await api.request('GET', `/v1/invoices?limit=3&page=${page}`, { key: ws.apiKey });
      byPage.push(...ids(response));
      if (!response.body.hasMore) break;
    }
    const byCursor: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const response = await api.request('GET', `/v1/invoices?limit=3${query}`, { key: ws.apiKey });
      expect(response.status).toBe(200);
      byCursor.push(...ids(response));
      cursor = response.body.nextCursor;
      expect(cursor === null).toBe(!response.body.hasMore);
    } while (cursor !== null);
    expect(byPage).toHaveLength(14);
    expect(byCursor).toEqual(byPage);
  });

  it('costs one Query per cursor page, however deep', async () => {
    const first = await api.request('GET', '/v1/invoices?limit=2', { key: ws.apiKey });
    let response = first;
    for (let page = 1; page < 5; page += 1) {
      response = await api.request('GET', `/v1/invoices?limit=2&cursor=${encodeURIComponent(response.body.nextCursor)}`, { key: ws.apiKey });
    }
    expect(stats(response)).toEqual(stats(first));
    expect(stats(response).calls).toBe(1);
    expect(stats(response).items).toBe(3);
  });

  it('serves status + customerId from their own partition: only matching invoices are read', async () => {
    const response = await api.request('GET', `/v1/invoices?customerId=${alice}&status=open&limit=100`, { key: ws.apiKey });
    expect(ids(response)).toEqual(aliceOpen);
    // One Query of exactly the matches, one BatchGet of them: nothing skipped.
    expect(stats(response)).toMatchObject({ calls: 2, items: aliceOpen.length * 2 });
  });

  it('follows a cursor through a filtered list', async () => {
    const first = await api.request('GET', `/v1/invoices?customerId=${alice}&limit=4`, { key: ws.apiKey });
    const second = await api.request('GET', `/v1/invoices?customerId=${alice}&limit=4&cursor=${encodeURIComponent(first.body.nextCursor)}`, { key: ws.apiKey });
    expect([...ids(first), ...ids(second)]).toEqual(aliceInvoices);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null, page: 0 });
  });

  it('refuses a cursor of another workspace or another filter with 400 invalid_query, never foreign data', async () => {
    const mine = await api.request('GET', '/v1/invoices?limit=1', { key: ws.apiKey });
    const cursor = encodeURIComponent(mine.body.nextCursor);
    const fromForeign = await api.request('GET', `/v1/invoices?limit=1&cursor=${cursor}`, { key: foreign.apiKey });
    const otherFilter = await api.request('GET', `/v1/invoices?limit=1&status=open&cursor=${cursor}`, { key: ws.apiKey });
    const garbage = await api.request('GET', '/v1/invoices?cursor=bm90LWEtY3Vyc29y', { key: ws.apiKey });
    for (const response of [fromForeign, otherFilter, garbage]) {
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_query', details: [{ path: 'cursor' }] });
    }
  });

  it('refuses a parameter given twice with 400 invalid_query naming it, rather than reading its last value', async () => {
    for (const [query, path] of [['limit=1&limit=2', 'limit'], ['status=open&status=paid', 'status']]) {
      const response = await api.request('GET', `/v1/invoices?${query}`, { key: ws.apiKey });
      expect(response.status, query).toBe(400);
      expect(response.body.error, query).toMatchObject({ code: 'invalid_query', details: [{ path, message: expect.stringContaining('2 times') }] });
    }
  });

  it('refuses cursor together with page, and page numbers 10,000 items deep, naming cursor', async () => {
    const mine = await api.request('GET', '/v1/invoices?limit=1', { key: ws.apiKey });
    const both = await api.request('GET', `/v1/invoices?page=1&cursor=${encodeURIComponent(mine.body.nextCursor)}`, { key: ws.apiKey });
    const deep = await api.request('GET', '/v1/invoices?page=100&limit=100', { key: ws.apiKey });
    const justAbove = await api.request('GET', '/v1/invoices?page=99&limit=100', { key: ws.apiKey });
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('invalid_query');
    expect(deep.status).toBe(400);
    expect(deep.body.error.details[0]).toMatchObject({ path: 'page' });
    expect(deep.body.error.details[0].message).toContain('cursor');
    // The message itself names it too (API.md), not only the details.
    expect(deep.body.error.message).toContain('cursor');
    expect(justAbove.status).toBe(200);
  });
});
