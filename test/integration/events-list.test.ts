import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../../shared/events/event-model.js';
import { seedEvents } from './support/events-seed.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let small: TestWorkspace;
let large: TestWorkspace;
let foreign: TestWorkspace;
let smallEvents: Event[];

const COMBINATIONS = [
  { status: 'draft', visibility: 'private' },
  { status: 'draft', visibility: 'public' },
  { status: 'published', visibility: 'private' },
  { status: 'published', visibility: 'public' },
] as const;
/** Every 4th event has the same status and visibility; start dates are scrambled so each sort differs. */
const mixed = (index: number) => ({ ...COMBINATIONS[index % 4], name: `Ev ${(index * 7) % 13} ${index}` });
const scrambledStart = (index: number) => ((index * 5) % 17) - 8;

const SORTS = ['createdAt', 'start', 'end', 'name'] as const;
const FILTERS = ['', '&status=draft', '&status=published', '&visibility=public', '&visibility=private', '&status=published&visibility=public'];

const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((item) => item.id);
const stats = (response: { headers: Headers }) => {
  const match = /calls=(\d+);rcu=([\d.]+);wcu=[\d.]+;items=(\d+)/.exec(response.headers.get('x-db-stats') ?? '');
  return { calls: Number(match?.[1]), rcu: Number(match?.[2]), items: Number(match?.[3]) };
};
const list = (workspace: TestWorkspace, query: string) => api.request('GET', `/v1/events?${query}`, { key: workspace.apiKey });

/** The expected order of a list, computed from the seeded events the way the contract defines it. */
function expected(events: Event[], sort: (typeof SORTS)[number], direction: 'asc' | 'desc', filter: string): string[] {
  const params = new URLSearchParams(filter);
  const value = (event: Event) => (sort === 'name' ? event.name.toLowerCase() : new Date(event[sort]).toISOString());
  const ordered = events
    .filter((event) => (!params.get('status') || event.status === params.get('status')) && (!params.get('visibility') || event.visibility === params.get('visibility')))
    .sort((a, b) => (value(a) === value(b) ? (a.id < b.id ? -1 : 1) : value(a) < value(b) ? -1 : 1))
    .map((event) => event.id);
  return direction === 'asc' ? ordered : ordered.reverse();
}

beforeAll(async () => {
  api = await startApi();
  [small, large, foreign] = await Promise.all([api.newWorkspace('Events 1x'), api.newWorkspace('Events 10x'), api.newWorkspace('Events foreign')]);
  // The foreign workspace holds events of every combination: they must never show up or cost anything.
  [smallEvents] = await Promise.all([
    seedEvents(small.workspaceId, 12, { body: mixed, startDays: scrambledStart }),
    seedEvents(large.workspaceId, 120, { body: mixed, startDays: scrambledStart }),
    seedEvents(foreign.workspaceId, 40, { body: mixed, startDays: scrambledStart }),
  ]);
}, 180_000);
afterAll(async () => api.close());

describe('GET /v1/events: every sort and filter from its own partitions', () => {
  it('lists exactly the matching events of the workspace, in order, for every sort, direction and filter', async () => {
    for (const sort of SORTS) {
      for (const direction of ['asc', 'desc'] as const) {
        for (const filter of FILTERS) {
          const response = await list(small, `sort=${sort}&direction=${direction}&limit=100${filter}`);
          expect(response.status).toBe(200);
          expect(ids(response), `${sort} ${direction} ${filter}`).toEqual(expected(smallEvents, sort, direction, filter));
        }
      }
    }
  });

  it('reads only the matching entries: both filters are one Query of the matches and one BatchGet', async () => {
    const response = await list(small, 'status=published&visibility=public&limit=100');
    expect(response.body.total).toBe(3);
    expect(stats(response)).toMatchObject({ calls: 2, items: 6 });
  });

  it('serves one filter from the two partitions of its value, merged: two Queries and one BatchGet', async () => {
    const response = await list(small, 'status=draft&limit=100');
    expect(response.body.total).toBe(6);
    expect(stats(response)).toMatchObject({ calls: 3, items: 12 });
  });

  it('costs the same for a page with 10x the events (<= 1.1x items and RCU), for every sort and filter', async () => {
    for (const sort of SORTS) {
      for (const filter of FILTERS) {
        const query = `sort=${sort}&limit=2${filter}`;
        const [one, ten] = [stats(await list(small, query)), stats(await list(large, query))];
        expect(ten.calls, query).toBe(one.calls);
        expect(ten.items, query).toBeLessThanOrEqual(one.items * 1.1);
        expect(ten.rcu, query).toBeLessThanOrEqual(one.rcu * 1.1);
      }
    }
  });

  it('visits by nextCursor exactly the items and order that page numbers give, filtered or not', async () => {
    for (const query of ['sort=name', 'sort=start&direction=desc&status=draft', 'sort=end&visibility=public', 'sort=createdAt&status=published&visibility=private']) {
      const byPage: string[] = [];
      for (let page = 0; ; page += 1) {
        const response = await list(large, `${query}&limit=7&page=${page}`);
        byPage.push(...ids(response));
        if (!response.body.hasMore) break;
      }
      const byCursor: string[] = [];
      let cursor: string | null = null;
      do {
        const response = await list(large, `${query}&limit=7${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
        expect(response.status).toBe(200);
        byCursor.push(...ids(response));
        cursor = response.body.nextCursor;
        expect(cursor === null, query).toBe(!response.body.hasMore);
      } while (cursor !== null);
      expect(byCursor, query).toEqual(byPage);
      expect(new Set(byCursor).size, query).toBe(byCursor.length);
    }
  });

  it('costs the same for a deep cursor page as for page 0', async () => {
    for (const filter of ['', '&status=draft', '&status=draft&visibility=public']) {
      const first = await list(large, `sort=start&limit=3${filter}`);
      let response = first;
      for (let page = 1; page < 5; page += 1) response = await list(large, `sort=start&limit=3${filter}&cursor=${encodeURIComponent(response.body.nextCursor)}`);
      expect(response.body.total, filter).toBe(3);
      expect(stats(response), filter).toEqual(stats(first));
    }
  });

  it('refuses a cursor of another workspace, sort or filter with 400 invalid_query, never foreign data', async () => {
    const mine = await list(large, 'sort=start&status=draft&limit=1');
    const cursor = encodeURIComponent(mine.body.nextCursor);
    for (const [workspace, query] of [[foreign, 'sort=start&status=draft'], [large, 'sort=end&status=draft'], [large, 'sort=start&status=published'], [large, 'sort=start']] as const) {
      const response = await list(workspace, `${query}&limit=1&cursor=${cursor}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_query', details: [{ path: 'cursor' }] });
    }
  });

  it('refuses page numbers 10,000 items deep, naming cursor, and cursor together with page', async () => {
    const deep = await list(small, 'page=100&limit=100');
    const both = await list(small, 'page=1&cursor=abc');
    expect(deep.status).toBe(400);
    expect(deep.body.error.details[0]).toMatchObject({ path: 'page', message: expect.stringContaining('cursor') });
    expect(deep.body.error.message).toContain('cursor');
    expect(both.status).toBe(400);
  });

  it('sorts a name before the longer names it begins (`Gala` < `Gala 2027` < `Gala!`), case-insensitively, filtered or not', async () => {
    // Prepare
    const workspace = await api.newWorkspace('Event names');
    const names = ['Gala!', 'concert b', 'Gala', 'Concert', 'Gala 2027', 'Gala#1'];
    await seedEvents(workspace.workspaceId, names.length, { body: (index) => ({ name: names[index], status: 'published', visibility: 'public' }) });
    const namesOf = async (query: string) => (await list(workspace, `sort=name&${query}`)).body.data.map((event: Event) => event.name);
    // Act + Assess
    const ascending = ['Concert', 'concert b', 'Gala', 'Gala 2027', 'Gala!', 'Gala#1'];
    expect(await namesOf('direction=asc')).toEqual(ascending);
    expect(await namesOf('direction=asc&status=published')).toEqual(ascending);
    expect(await namesOf('direction=asc&status=published&visibility=public')).toEqual(ascending);
    expect(await namesOf('direction=desc&visibility=public')).toEqual([...ascending].reverse());
  });

  it('moves an event between filter partitions when its status, visibility or sort fields change', async () => {
    // Prepare
    const [event] = await seedEvents(small.workspaceId, 1, { body: () => ({ name: 'Mover', status: 'draft', visibility: 'private' }) });
    const id = (event as Event).id;
    // Act
    const patched = await api.request('PATCH', `/v1/events/${id}`, { key: small.apiKey, body: { status: 'published', visibility: 'public', name: 'Aaa mover' } });
    // Assess
    expect(patched.status).toBe(200);
    const drafts = await list(small, 'status=draft&limit=100&sort=name');
    const live = await list(small, 'status=published&visibility=public&limit=100&sort=name');
    expect(ids(drafts)).not.toContain(id);
    expect(ids(live)[0]).toBe(id);
  });
});
