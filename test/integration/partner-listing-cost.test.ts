import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../../shared/events/event-model.js';
import { getItem } from '../../shared/db/conditional.js';
import { openCursor, sealCursor } from '../../shared/db/sealed-cursor.js';
import { sweepEndedEvents } from '../../shared/events/event-end-sweeper.js';
import { metaCountValue, partnerListingKeys } from '../../shared/events/event-partner-model.js';
import { createPartner } from '../../shared/partners/partners-repository.js';
import { seedEvents } from './support/events-seed.js';
import { startApi, type TestApi } from './support/api.js';

let api: TestApi;
const code = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;
const SMALL = code('ONE');
const LARGE = code('TEN');
const FOREIGN = code('OTHER');
let smallEvents: Event[];
let smallHost: string;

/** Listed events of a partner: both cities and tiers, half upcoming and half past, scrambled starts. */
const listed = (referral: string) => (index: number) => ({
  status: 'published', visibility: 'public', referral_code: referral,
  metaData: { city: index % 2 === 0 ? 'Montreal' : 'Toronto', tier: index % 3 === 0 ? 'gold' : 'silver' },
});
const scrambled = (index: number) => ((index * 7) % 41) - 20;

const SORTS = ['start', 'end', 'createdAt'] as const;
const FILTERS = ['all', 'upcoming', 'past'] as const;
const META = ['', '&city=Montreal', '&city=Montreal&tier=gold'];

const listing = (query: string) => api.request('GET', `/partner/events?${query}`);
const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((event) => event.id);
const stats = (response: { headers: Headers }) => {
  const match = /calls=(\d+);rcu=([\d.]+);wcu=[\d.]+;items=(\d+)/.exec(response.headers.get('x-db-stats') ?? '');
  return { calls: Number(match?.[1]), rcu: Number(match?.[2]), items: Number(match?.[3]) };
};

function expected(events: Event[], sort: (typeof SORTS)[number], direction: string, filter: string, meta: string): string[] {
  const now = Date.now();
  const pairs = [...new URLSearchParams(meta).entries()];
  const ordered = events
    .filter((event) => pairs.every(([key, value]) => event.metaData?.[key] === value))
    .filter((event) => filter === 'all' || (Date.parse(event.end) > now) === (filter === 'upcoming'))
    .sort((a, b) => (a[sort] === b[sort] ? (a.id < b.id ? -1 : 1) : Date.parse(a[sort]) - Date.parse(b[sort])))
    .map((event) => event.id);
  return direction === 'asc' ? ordered : ordered.reverse();
}

async function everyPage(query: string): Promise<{ byCursor: string[]; byPage: string[] }> {
  const byCursor: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await listing(`${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    if (response.status === 404) break;
    expect(response.status, query).toBe(200);
    byCursor.push(...ids(response));
    cursor = response.body.nextCursor;
    expect(cursor === null, query).toBe(!response.body.hasMore);
  } while (cursor !== null);
  const byPage: string[] = [];
  for (let page = 0; ; page += 1) {
    const response = await listing(`${query}&page=${page}`);
    if (response.status === 404) break;
    byPage.push(...ids(response));
    if (!response.body.hasMore) break;
  }
  return { byCursor, byPage };
}

beforeAll(async () => {
  api = await startApi();
  await Promise.all([SMALL, LARGE, FOREIGN].map((referral) => createPartner({ referral_code: referral })));
  const [one, ten, other] = await Promise.all([api.newWorkspace('Partner 1x'), api.newWorkspace('Partner 10x'), api.newWorkspace('Partner foreign')]);
  // One stream of writes at a time: on a loaded machine, parallel streams push DynamoDB Local past the client's timeouts.
  smallHost = one!.workspaceId;
  smallEvents = await seedEvents(one!.workspaceId, 32, { body: listed(SMALL), startDays: scrambled });
  await seedEvents(ten!.workspaceId, 320, { body: listed(LARGE), startDays: scrambled });
  // Another partner with the same metaData, and unlisted events carrying the codes: never read.
  await seedEvents(other!.workspaceId, 20, { body: listed(FOREIGN), startDays: scrambled });
  await seedEvents(other!.workspaceId, 10, { body: (index) => ({ ...listed(SMALL)(index), status: 'draft' }), startDays: scrambled });
  await seedEvents(other!.workspaceId, 10, { body: (index) => ({ ...listed(SMALL)(index), visibility: 'private' }), startDays: scrambled });
}, 480_000);
afterAll(async () => api.close());

describe('GET /partner/events: every sort, filter and metaData filter as key ranges', () => {
  it('lists exactly the matching events, in order, and cursors visit what page numbers visit', async () => {
    for (const sort of SORTS) {
      for (const filter of FILTERS) {
        for (const meta of META) {
          const direction = sort === 'end' ? 'desc' : 'asc';
          const query = `referral_code=${SMALL}&sort=${sort}&direction=${direction}&filter=${filter}&limit=4${meta}`;
          const { byCursor, byPage } = await everyPage(query);
          expect(byCursor, query).toEqual(expected(smallEvents, sort, direction, filter, meta));
          expect(byPage, query).toEqual(byCursor);
        }
      }
    }
  });

  it('costs the same for page 0 with 10x the events (<= 1.1x items and RCU), with 0, 1 and 2 metaData filters', async () => {
    for (const sort of SORTS) {
      for (const direction of ['asc', 'desc']) {
        for (const filter of FILTERS) {
          for (const meta of [...META, '&someKey=value']) {
            const query = `sort=${sort}&direction=${direction}&filter=${filter}&limit=5${meta}`;
            const one = stats(await listing(`referral_code=${SMALL}&${query}`));
            const ten = stats(await listing(`referral_code=${LARGE}&${query}`));
            expect(ten.calls, query).toBe(one.calls);
            expect(ten.items, query).toBeLessThanOrEqual(one.items * 1.1);
            expect(ten.rcu, query).toBeLessThanOrEqual(one.rcu * 1.1);
          }
        }
      }
    }
  });

  it('reads one window of candidates per page: the partner, limit + 1 candidates, and the events of metaData entries', async () => {
    const plain = await listing(`referral_code=${LARGE}&filter=past&sort=createdAt&limit=5`);
    const oneFilter = await listing(`referral_code=${LARGE}&filter=upcoming&city=Montreal&limit=5`);
    const noMatch = await listing(`referral_code=${LARGE}&someKey=value&sort=end`);
    const noMatchByStart = await listing(`referral_code=${LARGE}&someKey=value`);
    expect(plain.body.total).toBe(5);
    expect(stats(plain)).toMatchObject({ calls: 2, items: 1 + 6 });
    expect(oneFilter.body.total).toBe(5);
    expect(stats(oneFilter)).toMatchObject({ calls: 3, items: 1 + 6 + 5 });
    expect(noMatch.status).toBe(404);
    expect(stats(noMatch)).toMatchObject({ calls: 2, items: 1 });
    // All events by start with a metaData filter: the upcoming and past partitions of the pair, merged.
    expect(stats(noMatchByStart)).toMatchObject({ calls: 3, items: 1 });
  });

  it('costs the same for a deep cursor page as for page 0 (with several metaData filters, less: the counts are read on page 0 only)', async () => {
    for (const query of ['sort=start&filter=upcoming', 'sort=end&filter=past&direction=desc', 'sort=createdAt&city=Toronto', 'sort=start&city=Montreal&tier=silver', 'sort=end&tier=gold&city=Toronto']) {
      const first = await listing(`referral_code=${LARGE}&limit=5&${query}`);
      let response = first;
      for (let page = 1; page < 4; page += 1) response = await listing(`referral_code=${LARGE}&limit=5&${query}&cursor=${encodeURIComponent(response.body.nextCursor)}`);
      expect(response.status, query).toBe(200);
      const counts = query.includes('tier=') && query.includes('city=') ? { calls: 1, rcu: 1, items: 2 } : { calls: 0, rcu: 0, items: 0 };
      expect(stats(response), query).toEqual({ calls: stats(first).calls - counts.calls, rcu: stats(first).rcu - counts.rcu, items: stats(first).items - counts.items });
    }
  });

  it('with two metaData filters, reads the candidates of the one fewer events carry and answers those that match both, in either order', async () => {
    // tier=gold is on a third of the events, city=Montreal on half: gold's entries are the candidates.
    const page = await listing(`referral_code=${SMALL}&city=Montreal&tier=gold&sort=end&limit=3`);
    const swapped = await listing(`referral_code=${SMALL}&tier=gold&city=Montreal&sort=end&limit=3`);
    const candidates = expected(smallEvents, 'end', 'asc', 'all', 'tier=gold').slice(0, 3);
    const matches = expected(smallEvents, 'end', 'asc', 'all', 'city=Montreal&tier=gold');
    expect(ids(page)).toEqual(candidates.filter((id) => matches.includes(id)));
    expect(ids(swapped)).toEqual(ids(page));
    expect(page.body).toMatchObject({ hasMore: true, total: page.body.data.length, nextCursor: expect.any(String) });
    // The partner, the two counts, 4 entries of tier=gold (3 + the one telling hasMore), the 3 candidates' events.
    expect(stats(page)).toMatchObject({ calls: 4, items: 1 + 2 + 4 + 3 });
    // A pair nothing carries has no count: it is the most selective, and the page is empty at once.
    const none = await listing(`referral_code=${SMALL}&city=Montreal&someKey=value&sort=end`);
    expect(none.status).toBe(404);
    expect(stats(none)).toMatchObject({ calls: 3, items: 1 + 1 });
  });

  it('keeps one count per metaData pair of listed events, moved in the event\'s transaction', async () => {
    const referral = code('COUNT');
    await createPartner({ referral_code: referral });
    const workspace = await api.newWorkspace('Counts');
    const count = async (key: string, value: string) => metaCountValue(await getItem(partnerListingKeys.metaCount(referral, key, value), { consistent: true }));
    const [first] = await seedEvents(workspace.workspaceId, 2, { body: listed(referral) }) as [Event, Event];
    expect([await count('city', 'Montreal'), await count('city', 'Toronto'), await count('tier', 'gold'), await count('tier', 'silver')]).toEqual([1, 1, 1, 1]);
    const moved = await api.request('PATCH', `/v1/events/${first.id}`, { key: workspace.apiKey, body: { metaData: { city: 'Toronto', tier: 'gold' } } });
    expect(moved.status).toBe(200);
    expect([await count('city', 'Montreal'), await count('city', 'Toronto')]).toEqual([0, 2]);
    const unlisted = await api.request('PATCH', `/v1/events/${first.id}`, { key: workspace.apiKey, body: { visibility: 'private' } });
    expect(unlisted.status).toBe(200);
    expect([await count('city', 'Toronto'), await count('tier', 'gold')]).toEqual([1, 0]);
  });

  it('hands out sealed cursors: no host workspace id or key in them, in any order or filter', async () => {
    for (const query of ['sort=createdAt', 'sort=start&filter=upcoming', 'sort=end&filter=past', 'city=Montreal', 'city=Montreal&tier=gold&filter=all']) {
      const response = await listing(`referral_code=${SMALL}&limit=1&${query}`);
      expect(response.status, query).toBe(200);
      const cursor = response.body.nextCursor as string;
      for (const text of [cursor, Buffer.from(cursor, 'base64url').toString('latin1')]) {
        expect(text, query).not.toContain(smallHost);
        expect(text, query).not.toMatch(/WS#|EVENTS|PARTNER/);
      }
      // Still a cursor: the next page follows it.
      const next = await listing(`referral_code=${SMALL}&limit=1&${query}&cursor=${encodeURIComponent(cursor)}`);
      expect(next.status, query).toBe(200);
      expect(ids(next), query).not.toEqual(ids(response));
    }
  });

  it('refuses a cursor of another code or query, and page numbers 10,000 deep, with the flat 400 INVALID_QUERY', async () => {
    const mine = await listing(`referral_code=${SMALL}&limit=2&city=Montreal`);
    const cursor = encodeURIComponent(mine.body.nextCursor);
    // The position edited and sealed again, as only the server can (its first value was a 500: DynamoDB
    // refused it as a start key), the rest kept: the inner fingerprint still refuses it.
    const inner = await openCursor(mine.body.nextCursor, 'partner-events');
    const issued = JSON.parse(Buffer.from(inner, 'base64url').toString('utf8')) as { p: string[] };
    const edited = await sealCursor(Buffer.from(JSON.stringify({ ...issued, p: ['0', ...issued.p.slice(1)] })).toString('base64url'), 'partner-events');
    // Sealed cursors as a caller can tamper with them: one byte flipped, cut short, the plain inner cursor.
    const raw = Buffer.from(mine.body.nextCursor, 'base64url');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    const tampered = [raw.toString('base64url'), mine.body.nextCursor.slice(0, 40), inner];
    for (const query of [`referral_code=${LARGE}&limit=2&city=Montreal&cursor=${cursor}`, `referral_code=${SMALL}&limit=2&city=Toronto&cursor=${cursor}`,
      `referral_code=${SMALL}&limit=2&city=Montreal&cursor=${edited}`,
      ...tampered.map((value) => `referral_code=${SMALL}&limit=2&city=Montreal&cursor=${value}`),
      `referral_code=${SMALL}&cursor=not-a-cursor`, `referral_code=${SMALL}&page=1&cursor=${cursor}`, `referral_code=${SMALL}&page=100&limit=100`]) {
      const response = await listing(query);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toEqual({ status: 400, error: 'INVALID_QUERY', message: expect.any(String) });
    }
    const deep = await listing(`referral_code=${SMALL}&page=100&limit=100`);
    expect(deep.body.message).toContain('cursor');
  });
});

describe('the end sweeper', () => {
  it('moves an event that ended from upcoming to past; until then upcoming already leaves it out', async () => {
    // Prepare: a listed event that ends in a moment.
    const referral = code('SWEEP');
    await createPartner({ referral_code: referral });
    const workspace = await api.newWorkspace('Sweeper');
    const [event] = await seedEvents(workspace.workspaceId, 1, { body: () => ({ ...listed(referral)(0), start: new Date(Date.now() - 60_000).toISOString(), end: new Date(Date.now() + 1_500).toISOString() }) }) as [Event];
    const names = async (query: string) => ids(await listing(`referral_code=${referral}&${query}`));
    expect(await names('filter=upcoming')).toEqual([event.id]);
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    // Act: before the sweep, upcoming drops it by the clock; past does not show it yet.
    const upcomingBefore = await names('filter=upcoming&sort=createdAt');
    const pastBefore = await names('filter=past&city=Montreal');
    const report = await sweepEndedEvents();
    const again = await sweepEndedEvents();
    // Assess
    expect(upcomingBefore).toEqual([]);
    expect(pastBefore).toEqual([]);
    expect(report.swept).toBeGreaterThanOrEqual(1);
    expect(report.failed).toBe(0);
    expect(again.swept).toBe(0);
    for (const query of ['filter=past', 'filter=past&sort=createdAt', 'filter=past&sort=end', 'filter=past&city=Montreal', 'filter=past&city=Montreal&sort=createdAt', 'filter=past&city=Montreal&sort=end']) {
      expect(await names(query), query).toEqual([event.id]);
    }
    for (const query of ['filter=upcoming', 'filter=upcoming&sort=createdAt', 'filter=upcoming&city=Montreal']) {
      expect((await listing(`referral_code=${referral}&${query}`)).status, query).toBe(404);
    }
  });
});
