import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { dbStats } from './support/db-stats.js';
import { seedImages } from './support/seed-images.js';

let api: TestApi;
let small: TestWorkspace;
let large: TestWorkspace;
let foreign: TestWorkspace;
/** The small workspace's images, newest first. */
let smallIds: string[];

const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((image) => image.id);
const list = (workspace: TestWorkspace, query: string) => api.request('GET', `/v1/assets/images?${query}`, { key: workspace.apiKey });

beforeAll(async () => {
  api = await startApi();
  [small, large, foreign] = await Promise.all([api.newWorkspace('Images 1x'), api.newWorkspace('Images 10x'), api.newWorkspace('Images foreign')]);
  // Foreign images registered in between, with the same timestamps: they must never show up or cost anything.
  smallIds = await seedImages(small.workspaceId, 12, 1_800_000_000_000);
  await seedImages(foreign.workspaceId, 12, 1_800_000_000_000);
  await seedImages(large.workspaceId, 120, 1_800_000_000_000);
}, 120_000);
afterAll(async () => api.close());

describe('GET /v1/assets/images with cursors', () => {
  it('visits by nextCursor exactly the images and order that page numbers give', async () => {
    const byPage: string[] = [];
    for (let page = 0; ; page += 1) {
      const response = await list(small, `pageSize=5&page=${page}`);
      byPage.push(...ids(response));
      if (!response.body.hasMore) break;
    }
    const byCursor: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await list(small, `pageSize=5${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(response.status).toBe(200);
      byCursor.push(...ids(response));
      cursor = response.body.nextCursor;
      expect(cursor === null).toBe(!response.body.hasMore);
    } while (cursor !== null);
    expect(byPage).toEqual(smallIds);
    expect(byCursor).toEqual(smallIds);
  });

  it('costs one Query of pageSize + 1 items per cursor page, the same as page 0, however deep', async () => {
    const first = await list(large, 'pageSize=10');
    let response = first;
    for (let page = 1; page < 6; page += 1) response = await list(large, `pageSize=10&cursor=${encodeURIComponent(response.body.nextCursor)}`);
    expect(dbStats(first)).toMatchObject({ calls: 1, items: 11 });
    expect(dbStats(response)).toEqual(dbStats(first));
  });

  it('costs the same for a workspace with 10x the images', async () => {
    const one = dbStats(await list(small, 'pageSize=10'));
    const ten = dbStats(await list(large, 'pageSize=10'));
    expect(ten.items).toBeLessThanOrEqual(one.items * 1.1);
    expect(ten.rcu).toBeLessThanOrEqual(one.rcu * 1.1);
  });

  it('refuses a cursor of another workspace, a forged one and cursor with page, with 422 naming cursor', async () => {
    const mine = await list(small, 'pageSize=1');
    const cursor = encodeURIComponent(mine.body.nextCursor);
    const fromForeign = await list(foreign, `pageSize=1&cursor=${cursor}`);
    const forged = await list(small, 'cursor=bm90LWEtY3Vyc29y');
    const withPage = await list(small, `page=1&cursor=${cursor}`);
    for (const response of [fromForeign, forged, withPage]) {
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_failed', details: [{ path: 'cursor' }] });
    }
  });

  it('refuses page numbers 10,000 images deep with 422 naming cursor, and accepts the page just above', async () => {
    const deep = await list(small, 'page=40&pageSize=250');
    const justAbove = await list(small, 'page=39&pageSize=250');
    expect(deep.status).toBe(422);
    expect(deep.body.error.details[0]).toMatchObject({ path: 'page', message: expect.stringContaining('cursor') });
    expect(justAbove.status).toBe(200);
  });
});
