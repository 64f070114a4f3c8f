import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteItem, getItem, putItem } from '../../shared/db/conditional.js';
import { keyOfItem } from '../../shared/db/table-design.js';
import { partnerListingItems, partnerListingKeys } from '../../shared/events/event-partner-model.js';
import { createPartner } from '../../shared/partners/partners-repository.js';
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

  it('removes the name copy and filter entry of the `#`-separated design, on the backfill and on the event\'s next write', async () => {
    // Prepare: two events whose name keys the previous design wrote too (`<name>#<id>`).
    const events = await seedEvents(workspace.workspaceId, 2, { body: () => ({ status: 'published', visibility: 'public', name: `Legacy ${Date.now()}` }) }) as [Event, Event];
    for (const event of events) {
      const copy = await getItem(listingKeys.copy(workspace.workspaceId, event, 'name'), { consistent: true }) as Record<string, unknown>;
      const entry = await getItem(listingKeys.filterEntry(workspace.workspaceId, event, 'name'), { consistent: true }) as Record<string, unknown>;
      const [legacyCopy, legacyEntry] = listingKeys.legacyName(workspace.workspaceId, event) as [Record<string, string>, Record<string, string>];
      await putItem({ ...copy, ...legacyCopy });
      await putItem({ ...entry, ...legacyEntry });
    }
    const named = async () => (await listIds('sort=name&limit=100')).filter((id: string) => events.some((event) => event.id === id));
    expect((await named()).length).toBe(4);
    const [backfilled, written] = events;
    const main = await getItem(eventKeys.event(workspace.workspaceId, backfilled.id)) as Record<string, unknown>;

    // Act
    const deleted = await eventDerivedItemsBackfill.rebuild(main);
    const patched = await api.request('PATCH', `/v1/events/${written.id}`, { key: workspace.apiKey, body: { description: 'changed' } });

    // Assess
    expect(deleted).toBe(2);
    expect(patched.status).toBe(200);
    expect((await named()).sort()).toEqual(events.map((event) => event.id).sort());
    for (const event of events) for (const key of listingKeys.legacyName(workspace.workspaceId, event)) expect(await getItem(key, { consistent: true })).toBeUndefined();
  });

  it('writes nothing for an event the current version stored', async () => {
    const [event] = await seedEvents(workspace.workspaceId, 1) as [Event];
    const main = await getItem(eventKeys.event(workspace.workspaceId, event.id)) as Record<string, unknown>;
    expect(await eventDerivedItemsBackfill.rebuild(main)).toBe(0);
  });

  it('gives a listed event stored by the previous design its partner listing items, and removes its upcoming copies', async () => {
    // Prepare: the previous design stored TTL'd upcoming copies and no state copies, metaData entries or end schedule.
    const code = `BACKFILL-${Date.now()}`;
    await createPartner({ referral_code: code });
    const [event] = await seedEvents(workspace.workspaceId, 1, {
      body: () => ({ status: 'published', visibility: 'public', referral_code: code, metaData: { city: 'Montreal', tier: 'gold' } }),
    }) as [Event];
    const now = new Date();
    for (const item of partnerListingItems(workspace.workspaceId, event, now)) await deleteItem(keyOfItem(item));
    const legacy = partnerListingKeys.legacyUpcoming(workspace.workspaceId, event.id);
    for (const key of legacy) await putItem({ ...key, entity: 'EventUpcomingCopy', id: event.id });
    const listing = async (query: string) => (await api.request('GET', `/partner/events?referral_code=${code}&${query}`)).body.data?.map((listed: Event) => listed.id) ?? [];
    expect(await listing('city=Montreal')).toEqual([]);
    expect(await listing('filter=upcoming')).toEqual([]);
    const main = await getItem(eventKeys.event(workspace.workspaceId, event.id)) as Record<string, unknown>;
    // Act
    const first = await eventDerivedItemsBackfill.rebuild(main);
    const second = await eventDerivedItemsBackfill.rebuild(main);
    // Assess: 2 state copies + 2 metaData entries (and their pairs' counts) + the end schedule written, 2 upcoming copies deleted.
    expect(first).toBe(2 + 2 + 2 + 1 + 2);
    expect(second).toBe(0);
    for (const query of ['city=Montreal', 'tier=gold&sort=createdAt', 'city=Montreal&sort=end&filter=upcoming', 'filter=upcoming', 'filter=upcoming&sort=createdAt']) {
      expect(await listing(query), query).toEqual([event.id]);
    }
    for (const key of legacy) expect(await getItem(key)).toBeUndefined();
  });
});
