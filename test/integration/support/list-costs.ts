import { expect } from 'vitest';
import type { ApiResponse, TestApi } from './api.js';

/**
 * Reading a generic list the two ways a client can (page numbers, cursors) and what each page cost
 * in DynamoDB (the `X-Db-Stats` header of the local server). Shared by the list cost tests; the
 * bench's scaling suite can lift them as they are.
 */

export interface PageCost {
  calls: number;
  rcu: number;
  items: number;
}

/** The DynamoDB cost of one answer: `calls=..;rcu=..;wcu=..;items=..`. */
export function costOf(response: { headers: Headers }): PageCost {
  const match = /calls=(\d+);rcu=([\d.]+);wcu=[\d.]+;items=(\d+)/.exec(response.headers.get('x-db-stats') ?? '');
  if (!match) throw new Error('The answer carries no X-Db-Stats header.');
  return { calls: Number(match[1]), rcu: Number(match[2]), items: Number(match[3]) };
}

const join = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

async function get(api: TestApi, key: string, url: string): Promise<ApiResponse> {
  const response = await api.request('GET', url, { key });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${response.text}`);
  return response;
}

/** Every id of a list, read page number after page number. */
export async function idsByPages(api: TestApi, key: string, path: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 0; ; page += 1) {
    const response = await get(api, key, join(path, `limit=${limit}&page=${page}`));
    ids.push(...response.body.data.map((item: { id: string }) => item.id));
    if (!response.body.hasMore) return ids;
  }
}

/** Every id of a list, read by following `nextCursor` (which must be null exactly on the last page). */
export async function idsByCursor(api: TestApi, key: string, path: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? `limit=${limit}` : `limit=${limit}&cursor=${encodeURIComponent(cursor)}`;
    const response = await get(api, key, join(path, query));
    ids.push(...response.body.data.map((item: { id: string }) => item.id));
    if ((response.body.nextCursor === null) !== !response.body.hasMore) throw new Error(`${path}: nextCursor and hasMore disagree`);
    cursor = response.body.nextCursor;
  } while (cursor !== null);
  return ids;
}

/** What page 0 costs, and what the page reached by following `depth` cursors costs. */
export async function firstAndCursorPageCost(api: TestApi, key: string, path: string, limit: number, depth: number): Promise<{ first: PageCost; deep: PageCost; deepIds: string[] }> {
  const first = await get(api, key, join(path, `limit=${limit}`));
  let response = first;
  for (let step = 0; step < depth; step += 1) {
    if (response.body.nextCursor === null) throw new Error(`${path}: the list ends before cursor page ${depth}`);
    response = await get(api, key, join(path, `limit=${limit}&cursor=${encodeURIComponent(response.body.nextCursor)}`));
  }
  return { first: costOf(first), deep: costOf(response), deepIds: response.body.data.map((item: { id: string }) => item.id) };
}

/** The DynamoDB cost of page 0 of a list. */
export async function firstPageCost(api: TestApi, key: string, path: string, limit: number): Promise<PageCost> {
  return costOf(await get(api, key, join(path, `limit=${limit}`)));
}

export interface ScalingCase {
  /** Key and path of the list in the workspace with 1x the data. */
  small: { key: string; path: string };
  /** Key and path of the same list in the workspace with 10x the data. */
  large: { key: string; path: string };
}

/**
 * The scaling checks of a list (issue 9): page 0 costs `expected` calls and items at 1x; with 10x the
 * data it costs the same calls and at most 1.1x the items and RCU; a page reached by five cursors costs
 * exactly what page 0 costs.
 */
export async function expectFlatCost(api: TestApi, list: ScalingCase, limit: number, expected: { calls: number; items: number }): Promise<void> {
  const one = await firstPageCost(api, list.small.key, list.small.path, limit);
  const { first: ten, deep } = await firstAndCursorPageCost(api, list.large.key, list.large.path, limit, 5);
  expect(one).toEqual({ ...expected, rcu: one.rcu });
  expect(ten.calls).toBe(one.calls);
  expect(ten.items).toBeLessThanOrEqual(one.items * 1.1);
  expect(ten.rcu).toBeLessThanOrEqual(one.rcu * 1.1);
  expect(deep).toEqual(ten);
}
