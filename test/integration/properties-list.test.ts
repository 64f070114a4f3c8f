import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Property } from '../../shared/properties/property-model.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { seedProperties } from './support/crm-seed.js';
import { expectFlatCost, idsByCursor, idsByPages } from './support/list-costs.js';

/**
 * `GET /v1/properties`: every sort x filter combination is one partition made for it, so its pages
 * cost the same in a workspace with ten times the properties, and on a deep cursor page as on page 0.
 * A foreign workspace holds properties with the same objectTypes and statuses.
 */

let api: TestApi;
let small: TestWorkspace;
let large: TestWorkspace;
let foreign: TestWorkspace;
let seeded: Property[];

const SORTS = ['createdAt', 'name', 'updatedAt'] as const;
const FILTERS = [{}, { objectType: 'ticket' }, { status: 'archived' }, { objectType: 'ticket', status: 'archived' }] as const;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const orderKey: Record<(typeof SORTS)[number], (property: Property) => string> = {
  createdAt: (property) => property.id,
  name: (property) => `${property.name.toLowerCase()}\u0000${property.objectType}`,
  updatedAt: (property) => `${property.updatedAt}#${property.id}`,
};

function expected(sort: (typeof SORTS)[number], filter: Partial<Property>, direction: 'asc' | 'desc'): string[] {
  const ids = seeded
    .filter((property) => (filter.objectType === undefined || property.objectType === filter.objectType) && (filter.status === undefined || property.status === filter.status))
    .sort((a, b) => compare(orderKey[sort](a), orderKey[sort](b)))
    .map((property) => property.id);
  return direction === 'asc' ? ids : ids.reverse();
}

const pathOf = (sort: string, filter: Record<string, string>, direction = 'asc') =>
  `/v1/properties?${new URLSearchParams({ sort, direction, ...filter }).toString()}`;

const CASES = SORTS.flatMap((sort) => FILTERS.map((filter) => ({ sort, filter, label: `sort=${sort} ${new URLSearchParams(filter).toString() || 'unfiltered'}` })));

beforeAll(async () => {
  api = await startApi();
  [small, large, foreign] = await Promise.all([api.newWorkspace('Properties 1x'), api.newWorkspace('Properties 10x'), api.newWorkspace('Properties foreign')]);
  [seeded] = await Promise.all([seedProperties(small.workspaceId, 40), seedProperties(large.workspaceId, 400), seedProperties(foreign.workspaceId, 40)]);
}, 180_000);
afterAll(async () => api.close());

describe('GET /v1/properties: one partition per sort and filter', () => {
  it.each(CASES)('lists $label in order, both directions, by page numbers and by cursor alike, never a foreign property', async ({ sort, filter }) => {
    for (const direction of ['asc', 'desc'] as const) {
      const path = pathOf(sort, filter, direction);
      const byPages = await idsByPages(api, small.apiKey, path, 7);
      const byCursor = await idsByCursor(api, small.apiKey, path, 7);
      expect(byPages).toEqual(expected(sort, filter, direction));
      expect(byCursor).toEqual(byPages);
    }
  });

  it.each(CASES)('costs the same for $label with 10x the properties, and on a deep cursor page as on page 0', async ({ sort, filter }) => {
    const path = pathOf(sort, filter);
    const projected = Object.keys(filter).length > 0;
    // One Query of limit + 1 items; filtered lists read projections, then one BatchGet of the page.
    await expectFlatCost(api, { small: { key: small.apiKey, path }, large: { key: large.apiKey, path } }, 4, { calls: projected ? 2 : 1, items: projected ? 5 + 4 : 5 });
  });

  it('refuses a cursor of another filter or workspace with 400 invalid_query', async () => {
    const page = await api.request('GET', `${pathOf('name', { objectType: 'ticket' })}&limit=2`, { key: small.apiKey });
    const cursor = encodeURIComponent(page.body.nextCursor);
    const otherFilter = await api.request('GET', `${pathOf('name', { objectType: 'order' })}&limit=2&cursor=${cursor}`, { key: small.apiKey });
    const otherSort = await api.request('GET', `${pathOf('createdAt', { objectType: 'ticket' })}&limit=2&cursor=${cursor}`, { key: small.apiKey });
    const otherWorkspace = await api.request('GET', `${pathOf('name', { objectType: 'ticket' })}&limit=2&cursor=${cursor}`, { key: foreign.apiKey });
    for (const response of [otherFilter, otherSort, otherWorkspace]) {
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_query', details: [{ path: 'cursor' }] });
    }
  });

  it('moves an archived property between the status lists at once, in every order', async () => {
    // Prepare
    const own = await api.newWorkspace('Properties archive');
    const [target] = (await seedProperties(own.workspaceId, 8)).filter((property) => property.status === 'active');
    // Act
    const archived = await api.request('PATCH', `/v1/properties/${target?.id}`, { key: own.apiKey, body: { status: 'archived' } });
    const lists = await Promise.all(SORTS.map(async (sort) => ({
      active: await idsByPages(api, own.apiKey, pathOf(sort, { objectType: target?.objectType as string, status: 'active' }), 100),
      archived: await idsByPages(api, own.apiKey, pathOf(sort, { status: 'archived' }), 100),
    })));
    // Assess
    expect(archived.status).toBe(200);
    for (const { active, archived: archivedIds } of lists) {
      expect(active).not.toContain(target?.id);
      expect(archivedIds).toContain(target?.id);
    }
  });
});
