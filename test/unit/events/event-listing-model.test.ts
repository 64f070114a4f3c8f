import { describe, expect, it } from 'vitest';
import { derivedChanges, eventListSource, itemChanges, listingKeys } from '../../../shared/events/event-listing-model.js';
import { isPartnerListed } from '../../../shared/events/event-partner-model.js';
import { applyEventUpdate } from '../../../shared/events/events-service.js';
import { updateEventBodySchema } from '../../../shared/events/event-model.js';
import { anEvent } from './event-factories.js';

const NOW = new Date('2030-01-01T00:00:00Z');
const patch = (body: Record<string, unknown>) => updateEventBodySchema.parse(body);
const entities = (items: Record<string, unknown>[]) => items.map((item) => item.entity);

describe('derivedChanges', () => {
  it('writes the copies, one filter entry per sort field and the products on create', () => {
    const changes = derivedChanges('ws1', undefined, anEvent(), NOW);
    expect(entities(changes.puts).filter((entity) => entity === 'EventSortCopy')).toHaveLength(4);
    expect(entities(changes.puts).filter((entity) => entity === 'EventFilterEntry')).toHaveLength(4);
    expect(entities(changes.puts).filter((entity) => entity === 'Product')).toHaveLength(2);
    expect(changes.deletes).toEqual([]);
  });

  it('moves every filter entry to the new status partition, and nothing else moves', () => {
    // Prepare
    const before = anEvent();
    const after = applyEventUpdate(before, patch({ status: 'published' }), NOW);
    // Act
    const changes = derivedChanges('ws1', before, after, NOW);
    // Assess
    // The four old filter entries, and the two `#`-separated name keys of the previous design (deleted if met).
    expect(changes.deletes).toHaveLength(4 + 2);
    expect(changes.deletes).toEqual(expect.arrayContaining(listingKeys.legacyName('ws1', before)));
    expect(JSON.stringify(changes.deletes)).toContain('#draft#private');
    const entries = changes.puts.filter((item) => item.entity === 'EventFilterEntry');
    expect(entries).toHaveLength(4);
    expect(JSON.stringify(entries)).toContain('#published#private');
    // The copies carry the new version; unchanged products are not rewritten.
    expect(entities(changes.puts).filter((entity) => entity === 'Product')).toEqual([]);
  });

  it('moves only the entries of the sort field that changed', () => {
    const before = anEvent();
    const after = applyEventUpdate(before, patch({ name: 'Zebra' }), NOW);
    const changes = derivedChanges('ws1', before, after, NOW);
    expect(changes.deletes).toHaveLength(2 + 2);
    expect(changes.deletes.filter((key) => !JSON.stringify(key).includes('BY_NAME'))).toEqual([]);
    expect(changes.deletes).toEqual(expect.arrayContaining(listingKeys.legacyName('ws1', before)));
  });

  it('deletes the products that were dropped', () => {
    const before = anEvent();
    const [kept] = before.products;
    const after = applyEventUpdate(before, patch({ products: [{ ...kept }] }), NOW);
    const changes = derivedChanges('ws1', before, after, NOW);
    expect(JSON.stringify(changes.deletes)).toContain(before.products[1]?.id);
  });

  it('gives a listed upcoming event its state copies, one metaData entry per pair and an end schedule entry', () => {
    const event = anEvent({ status: 'published', visibility: 'public', referral_code: 'P1', metaData: { city: 'Montreal', tier: 'gold' } });
    expect(isPartnerListed(event)).toBe(true);
    const changes = derivedChanges('ws1', undefined, event, NOW);
    const copies = changes.puts.filter((item) => item.entity === 'EventPartnerCopy');
    expect(copies.map((item) => item.GSI1SK)).toEqual([
      `UPCOMING#START#2030-06-01T18:00:00.000Z#${event.id}`, `UPCOMING#CREATED#${event.createdAt}#${event.id}`,
    ]);
    const entries = changes.puts.filter((item) => item.entity === 'EventMetaEntry');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ SK: `2030-06-01T23:00:00.000Z#${event.id}`, GSI1PK: expect.stringMatching(/#UPCOMING$/), GSI2SK: `${event.createdAt}#${event.id}`, eventId: event.id, workspaceId: 'ws1' });
    expect(changes.puts.filter((item) => item.entity === 'EventEndSchedule')).toEqual([
      expect.objectContaining({ PK: 'EVENT_ENDS', SK: `2030-06-01T23:00:00.000Z#ws1#${event.id}` }),
    ]);
  });

  it('writes a listed event that already ended as past, with no end schedule entry', () => {
    const event = anEvent({ status: 'published', visibility: 'public', referral_code: 'P1', metaData: { city: 'Montreal' } });
    const changes = derivedChanges('ws1', undefined, event, new Date('2031-01-01T00:00:00Z'));
    expect(changes.puts.filter((item) => item.entity === 'EventPartnerCopy').map((item) => String(item.GSI1SK).split('#')[0])).toEqual(['PAST', 'PAST']);
    expect(changes.puts.find((item) => item.entity === 'EventMetaEntry')?.GSI1PK).toMatch(/#PAST$/);
    expect(changes.puts.some((item) => item.entity === 'EventEndSchedule')).toBe(false);
  });

  it('removes every partner listing item when the event leaves the listing, and the previous design\'s upcoming copies', () => {
    const before = anEvent({ status: 'published', visibility: 'public', referral_code: 'P1', metaData: { city: 'Montreal' } });
    const after = applyEventUpdate(before, patch({ visibility: 'private' }), NOW);
    const deleted = JSON.stringify(derivedChanges('ws1', before, after, NOW).deletes);
    expect(deleted).toContain(`${before.id}#start`);
    expect(deleted).toContain('#META#');
    expect(deleted).toContain('EVENT_ENDS');
    expect(deleted).toContain(`${before.id}#upcomingStart`);
  });

  it('moves only the entries of a changed metaData value', () => {
    const before = anEvent({ status: 'published', visibility: 'public', referral_code: 'P1', metaData: { city: 'Montreal', tier: 'gold' } });
    const after = applyEventUpdate(before, patch({ metaData: { city: 'Toronto', tier: 'gold' } }), NOW);
    const changes = derivedChanges('ws1', before, after, NOW);
    expect(changes.deletes.filter((key) => String(key.PK).includes('#META#'))).toHaveLength(1);
    expect(changes.puts.filter((item) => item.entity === 'EventMetaEntry')).toHaveLength(1);
  });

  it('counts each metaData pair\'s listed events: +1 with a new entry, -1 with a deleted one, nothing when only the state or the end moves', () => {
    const listed = anEvent({ status: 'published', visibility: 'public', referral_code: 'P1', metaData: { city: 'Montreal', tier: 'gold' } });
    const countsOf = (changes: ReturnType<typeof derivedChanges>) => changes.counts.map((count) => [String(count.key.PK).replace(/#META#.*#COUNT$/, '#META#..#COUNT'), count.values[':delta']]);
    const created = derivedChanges('ws1', undefined, listed, NOW);
    const retitled = derivedChanges('ws1', listed, applyEventUpdate(listed, patch({ metaData: { city: 'Toronto', tier: 'gold' } }), NOW), NOW);
    const moved = derivedChanges('ws1', listed, applyEventUpdate(listed, patch({ end: '2030-06-02T23:00:00Z' }), NOW), NOW);
    const ended = itemChanges(derivedChanges('ws1', undefined, listed, new Date('2031-01-01T00:00:00Z')).puts, created.puts);
    const unlisted = derivedChanges('ws1', listed, applyEventUpdate(listed, patch({ visibility: 'private' }), NOW), NOW);
    expect(countsOf(created)).toEqual([['REFCODE#P1#META#..#COUNT', 1], ['REFCODE#P1#META#..#COUNT', 1]]);
    expect(created.counts[0]).toMatchObject({ update: 'SET #entity = :entity ADD #events :delta', values: { ':entity': 'EventMetaCount' } });
    expect(retitled.counts.map((count) => count.values[':delta'])).toEqual([-1, 1]);
    expect(retitled.counts[0]?.key).not.toEqual(retitled.counts[1]?.key);
    expect(moved.counts).toEqual([]);
    expect(ended.puts.some((item) => item.entity === 'EventMetaEntry')).toBe(true);
    expect(ended.counts).toEqual([]);
    expect(unlisted.counts.map((count) => count.values[':delta'])).toEqual([-1, -1]);
  });

  it('leaves a due end schedule entry to the sweeper, which compares with what is stored', () => {
    const before = anEvent({ status: 'published', visibility: 'public', referral_code: 'P1', metaData: { city: 'Montreal' } });
    const after = applyEventUpdate(before, patch({ name: 'Renamed' }), NOW);
    const changes = derivedChanges('ws1', before, after, new Date('2031-01-01T00:00:00Z'));
    expect(JSON.stringify(changes.deletes)).not.toContain('EVENT_ENDS');
  });
});

describe('itemChanges', () => {
  it('skips items stored exactly as wanted and never deletes a wanted key', () => {
    const item = { PK: 'a', SK: '1', value: 1 };
    expect(itemChanges([item], [{ ...item }], [{ PK: 'a', SK: '1' }])).toEqual({ puts: [], deletes: [], counts: [] });
    expect(itemChanges([{ ...item, value: 2 }], [item], []).puts).toHaveLength(1);
  });
});

describe('eventListSource', () => {
  it('reads the copies unfiltered, one partition with both filters, two with one', () => {
    expect(eventListSource('ws1', { sort: 'start', direction: 'asc' })).toEqual({ copies: 'WS#ws1#EVENTS#BY_START' });
    expect(eventListSource('ws1', { sort: 'name', direction: 'asc', status: 'draft', visibility: 'public' })).toEqual({ entries: ['WS#ws1#EVENTS#BY_NAME#draft#public'] });
    expect(eventListSource('ws1', { sort: 'end', direction: 'desc', visibility: 'private' })).toEqual({
      entries: ['WS#ws1#EVENTS#BY_END#draft#private', 'WS#ws1#EVENTS#BY_END#published#private'],
    });
  });
});
