import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../../shared/forms/form-model.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { seedForms } from './support/crm-seed.js';
import { expectFlatCost, idsByCursor, idsByPages } from './support/list-costs.js';

/**
 * `GET /v1/forms`: every sort, with or without the `status` filter, is one partition made for it, so
 * its pages cost the same in a workspace with ten times the forms, and on a deep cursor page as on
 * page 0. A foreign workspace holds forms of every status.
 */

let api: TestApi;
let small: TestWorkspace;
let large: TestWorkspace;
let foreign: TestWorkspace;
let seeded: Form[];

const SORTS = ['createdAt', 'name', 'updatedAt'] as const;
const FILTERS = [{}, { status: 'active' }, { status: 'archived' }] as const;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const orderKey: Record<(typeof SORTS)[number], (form: Form) => string> = {
  createdAt: (form) => form.id,
  name: (form) => `${form.name.toLowerCase()}\u0000${form.id}`,
  updatedAt: (form) => `${form.updatedAt}#${form.id}`,
};

function expected(sort: (typeof SORTS)[number], filter: { status?: string }, direction: 'asc' | 'desc'): string[] {
  const ids = seeded
    .filter((form) => filter.status === undefined || form.status === filter.status)
    .sort((a, b) => compare(orderKey[sort](a), orderKey[sort](b)))
    .map((form) => form.id);
  return direction === 'asc' ? ids : ids.reverse();
}

const pathOf = (sort: string, filter: Record<string, string>, direction = 'asc') => `/v1/forms?${new URLSearchParams({ sort, direction, ...filter }).toString()}`;
const CASES = SORTS.flatMap((sort) => FILTERS.map((filter) => ({ sort, filter, label: `sort=${sort} ${new URLSearchParams(filter).toString() || 'unfiltered'}` })));

beforeAll(async () => {
  api = await startApi();
  [small, large, foreign] = await Promise.all([api.newWorkspace('Forms 1x'), api.newWorkspace('Forms 10x'), api.newWorkspace('Forms foreign')]);
  [seeded] = await Promise.all([seedForms(small.workspaceId, 30), seedForms(large.workspaceId, 300), seedForms(foreign.workspaceId, 30)]);
}, 180_000);
afterAll(async () => api.close());

describe('GET /v1/forms: one partition per sort and status', () => {
  it.each(CASES)('lists $label in order, both directions, by page numbers and by cursor alike, never a foreign form', async ({ sort, filter }) => {
    for (const direction of ['asc', 'desc'] as const) {
      const path = pathOf(sort, filter, direction);
      const byPages = await idsByPages(api, small.apiKey, path, 7);
      expect(byPages).toEqual(expected(sort, filter, direction));
      expect(await idsByCursor(api, small.apiKey, path, 7)).toEqual(byPages);
    }
  });

  it.each(CASES)('costs the same for $label with 10x the forms, and on a deep cursor page as on page 0', async ({ sort, filter }) => {
    const path = pathOf(sort, filter);
    const projected = Object.keys(filter).length > 0;
    // One Query of limit + 1 items; with status, status projections, then one BatchGet of the page.
    await expectFlatCost(api, { small: { key: small.apiKey, path }, large: { key: large.apiKey, path } }, 4, { calls: projected ? 2 : 1, items: projected ? 5 + 4 : 5 });
  });

  it('sorts a name before the longer names it begins (`Gala` < `Gala 2027` < `Gala!`), case-insensitively, filtered or not', async () => {
    // Prepare
    const workspace = await api.newWorkspace('Form names');
    const names = ['Gala!', 'beta form', 'Gala', 'Beta', 'Gala 2027', 'Gala#1'];
    for (const name of names) {
      const created = await api.request('POST', '/v1/forms', { key: workspace.apiKey, body: { name, type: 'standalone', status: 'active' } });
      expect(created.status).toBe(201);
    }
    const namesOf = async (query: string) => (await api.request('GET', `/v1/forms?sort=name&${query}`, { key: workspace.apiKey })).body.data.map((form: Form) => form.name);
    // Act + Assess
    const ascending = ['Beta', 'beta form', 'Gala', 'Gala 2027', 'Gala!', 'Gala#1'];
    expect(await namesOf('direction=asc')).toEqual(ascending);
    expect(await namesOf('direction=asc&status=active')).toEqual(ascending);
    expect(await namesOf('direction=desc')).toEqual([...ascending].reverse());
  });

  it('moves a form between the status lists when its status changes, in every order', async () => {
    // Prepare
    const own = await api.newWorkspace('Forms status move');
    const [draft] = await seedForms(own.workspaceId, 3);
    // Act
    const edited = await api.request('PATCH', `/v1/forms/${draft?.id}`, { key: own.apiKey, body: { status: 'archived', name: 'Moved' } });
    const lists = await Promise.all(SORTS.map(async (sort) => ({
      drafts: await idsByPages(api, own.apiKey, pathOf(sort, { status: 'draft' }), 100),
      archived: await idsByPages(api, own.apiKey, pathOf(sort, { status: 'archived' }), 100),
    })));
    // Assess
    expect(edited.status).toBe(200);
    for (const { drafts, archived } of lists) {
      expect(drafts).not.toContain(draft?.id);
      expect(archived).toContain(draft?.id);
    }
  });

  it('refuses a cursor of another status or workspace with 400 invalid_query', async () => {
    const page = await api.request('GET', `${pathOf('name', { status: 'active' })}&limit=2`, { key: small.apiKey });
    const cursor = encodeURIComponent(page.body.nextCursor);
    const otherStatus = await api.request('GET', `${pathOf('name', { status: 'draft' })}&limit=2&cursor=${cursor}`, { key: small.apiKey });
    const otherWorkspace = await api.request('GET', `${pathOf('name', { status: 'active' })}&limit=2&cursor=${cursor}`, { key: foreign.apiKey });
    for (const response of [otherStatus, otherWorkspace]) {
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_query', details: [{ path: 'cursor' }] });
    }
  });
});
