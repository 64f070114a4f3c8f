import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteItem, getItem } from '../../shared/db/conditional.js';
import { eventDerivedItemsBackfill } from '../../shared/events/event-backfill.js';
import { listingKeys } from '../../shared/events/event-listing-model.js';
import { EVENT_SORT_FIELDS, eventKeys, type Event } from '../../shared/events/event-model.js';
import { seedEvents } from './support/events-seed.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Events backfill');
});
afterAll(async () => api.close());

const listIds = async (query: string) => (await api.request('GET', `/v1/events?${query}`, { key: workspace.apiKey })).body.data.map((event: Event) => event.id);

describe('event derived items backfill', () => {
  it('gives an event stored without filter entries its entries, and a second run writes nothing', async () => {
    // Prepare: an event as the previous version stored it (no filter entries).
    const [event] = await seedEvents(workspace.workspaceId, 1, { body: () => ({ status: 'published', visibility: 'public' }) }) as [Event];
    for (const field of EVENT_SORT_FIELDS) await deleteItem(listingKeys.filterEntry(workspace.workspaceId, event, field));
    expect(await listIds('status=published')).toEqual([]);
    const main = await getItem(eventKeys.event(workspace.workspaceId, event.id)) as Record<string, unknown>;
    // Act
    const first = await eventDerivedItemsBackfill.rebuild(main);
    const second = await eventDerivedItemsBackfill.rebuild(main);
    // Assess
    expect(first).toBe(EVENT_SORT_FIELDS.length);
    expect(second).toBe(0);
    expect(eventDerivedItemsBackfill.entity).toBe(main.entity);
    for (const sort of EVENT_SORT_FIELDS) {
      expect(await listIds(`status=published&visibility=public&sort=${sort}`), sort).toEqual([event.id]);
      expect(await listIds(`visibility=public&sort=${sort}`), sort).toEqual([event.id]);
    }
  });

  it('writes nothing for an event the current version stored', async () => {
    const [event] = await seedEvents(workspace.workspaceId, 1) as [Event];
    const main = await getItem(eventKeys.event(workspace.workspaceId, event.id)) as Record<string, unknown>;
    expect(await eventDerivedItemsBackfill.rebuild(main)).toBe(0);
  });
});
