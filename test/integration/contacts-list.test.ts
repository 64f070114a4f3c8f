import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contact } from '../../shared/contacts/contact-model.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { seedContacts } from './support/crm-seed.js';
import { expectFlatCost, idsByCursor, idsByPages } from './support/list-costs.js';

/**
 * `GET /v1/contacts`: creation order is the contact partition, email order the email guards, and the
 * `email` filter the one guard of that email; pages cost the same with ten times the contacts and on
 * a deep cursor page. A foreign workspace holds contacts with the same emails.
 */

let api: TestApi;
let small: TestWorkspace;
let large: TestWorkspace;
let foreign: TestWorkspace;
let seeded: Contact[];

function expected(sort: 'createdAt' | 'email', direction: 'asc' | 'desc'): string[] {
  const key = (contact: Contact) => (sort === 'email' ? contact.email : contact.id);
  const ids = [...seeded].sort((a, b) => (key(a) < key(b) ? -1 : 1)).map((contact) => contact.id);
  return direction === 'asc' ? ids : ids.reverse();
}

beforeAll(async () => {
  api = await startApi();
  [small, large, foreign] = await Promise.all([api.newWorkspace('Contacts 1x'), api.newWorkspace('Contacts 10x'), api.newWorkspace('Contacts foreign')]);
  [seeded] = await Promise.all([seedContacts(small.workspaceId, 30), seedContacts(large.workspaceId, 300), seedContacts(foreign.workspaceId, 30)]);
}, 180_000);
afterAll(async () => api.close());

describe('GET /v1/contacts: one partition per sort and filter', () => {
  it.each(['createdAt', 'email'] as const)('lists sort=%s in order, both directions, by page numbers and by cursor alike, never a foreign contact', async (sort) => {
    for (const direction of ['asc', 'desc'] as const) {
      const path = `/v1/contacts?sort=${sort}&direction=${direction}`;
      const byPages = await idsByPages(api, small.apiKey, path, 7);
      expect(byPages).toEqual(expected(sort, direction));
      expect(await idsByCursor(api, small.apiKey, path, 7)).toEqual(byPages);
    }
  });

  it.each([
    { sort: 'createdAt', calls: 1, items: 5 },
    { sort: 'email', calls: 2, items: 5 + 4 },
  ])('costs the same for sort=$sort with 10x the contacts, and on a deep cursor page as on page 0', async ({ sort, calls, items }) => {
    const path = `/v1/contacts?sort=${sort}`;
    await expectFlatCost(api, { small: { key: small.apiKey, path }, large: { key: large.apiKey, path } }, 4, { calls, items });
  });

  it('finds a contact by email with one guard Query and one BatchGet, at 1x and 10x alike', async () => {
    const email = 'CONTACT-00007@example.com';
    const byEmail = (workspace: TestWorkspace) => api.request('GET', `/v1/contacts?email=${encodeURIComponent(email)}`, { key: workspace.apiKey });
    const [one, ten] = await Promise.all([byEmail(small), byEmail(large)]);
    expect(one.body.data.map((contact: Contact) => contact.email)).toEqual(['contact-00007@example.com']);
    expect(one.body).toMatchObject({ total: 1, hasMore: false, nextCursor: null });
    expect(ten.body.data).toHaveLength(1);
    expect(ten.body.data[0].id).not.toBe(one.body.data[0].id);
    expect(one.headers.get('x-db-stats')).toMatch(/^calls=2;.*items=2$/);
    expect(ten.headers.get('x-db-stats')).toBe(one.headers.get('x-db-stats'));
  });

  it('refuses a cursor of another sort or workspace with 400 invalid_query', async () => {
    const page = await api.request('GET', '/v1/contacts?sort=email&limit=2', { key: small.apiKey });
    const cursor = encodeURIComponent(page.body.nextCursor);
    const otherSort = await api.request('GET', `/v1/contacts?limit=2&cursor=${cursor}`, { key: small.apiKey });
    const otherWorkspace = await api.request('GET', `/v1/contacts?sort=email&limit=2&cursor=${cursor}`, { key: foreign.apiKey });
    const withEmail = await api.request('GET', `/v1/contacts?sort=email&email=a%40example.com&limit=2&cursor=${cursor}`, { key: small.apiKey });
    for (const response of [otherSort, otherWorkspace, withEmail]) {
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_query', details: [{ path: 'cursor' }] });
    }
  });
});
