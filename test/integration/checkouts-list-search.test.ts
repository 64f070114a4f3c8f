import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_SCAN_BUDGET } from '../../shared/checkouts/checkout-model.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { seedCheckouts } from './support/checkouts-seed.js';
import { dbStats } from './support/db-stats.js';

/**
 * `search` (and any condition the keys cannot serve) evaluates list projections: one request examines
 * at most LIST_SCAN_BUDGET of them, never the whole workspace, and `nextCursor` continues after them.
 */

let api: TestApi;
let ws: TestWorkspace;
const TOTAL = LIST_SCAN_BUDGET + 10;

beforeAll(async () => {
  api = await startApi();
  ws = await api.newWorkspace('Checkout search budget');
  // The oldest checkout is the only match: newest first, it lies beyond what one request examines.
  await seedCheckouts(ws.workspaceId, TOTAL, { fields: (index) => ({ name: index === 0 ? 'The Needle' : `Hay ${index}` }) });
}, 600_000);
afterAll(async () => api.close());

const list = (query: string) => api.request('GET', `/v1/checkouts?${query}`, { key: ws.apiKey });

describe('GET /v1/checkouts?search= in a large workspace', () => {
  it('examines at most the budget, answers a short page with hasMore, and finds the match by following nextCursor', async () => {
    // Act
    const first = await list('search=needle');
    const second = await list(`search=needle&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    // Assess
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ data: [], hasMore: true, nextCursor: expect.any(String) });
    expect(dbStats(first).items).toBeLessThanOrEqual(LIST_SCAN_BUDGET);
    expect(second.body.data.map((checkout: { name: string }) => checkout.name)).toEqual(['The Needle']);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(dbStats(second).items).toBeLessThanOrEqual(TOTAL - LIST_SCAN_BUDGET + 1);
  });

  it('refuses a page number the examined checkouts do not reach, naming cursor', async () => {
    const response = await list('search=hay&pageSize=200&pageNumber=6');
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_query', details: [{ path: 'pageNumber', message: expect.stringContaining('nextCursor') }] });
  });

  it('fills pages from the examined checkouts when matches are frequent', async () => {
    const response = await list('search=hay&pageSize=50&pageNumber=3');
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(50);
    expect(response.body.hasMore).toBe(true);
  });
});
