import { describe, expect, it } from 'vitest';
import { derivedChanges, eventListSource, isPartnerListed, itemChanges } from '../../../shared/events/event-listing-model.js';
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
    expect(changes.deletes).toHaveLength(4);
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
    expect(changes.deletes).toHaveLength(2);
    expect(JSON.stringify(changes.deletes)).toContain('BY_NAME');
  });

  it('deletes the products that were dropped', () => {
    const before = anEvent();
    const [kept] = before.products;
    const after = applyEventUpdate(before, patch({ products: [{ ...kept }] }), NOW);
    const changes = derivedChanges('ws1', before, after, NOW);
    expect(JSON.stringify(changes.deletes)).toContain(before.products[1]?.id);
  });

  it('removes the upcoming projections when the event leaves the partner listing, even if the clock says it ended', () => {
    const before = anEvent({ status: 'published', visibility: 'public', referral_code: 'P1' });
    expect(isPartnerListed(before)).toBe(true);
    const after = applyEventUpdate(before, patch({ visibility: 'private' }), NOW);
    const changes = derivedChanges('ws1', before, after, new Date('2031-01-01T00:00:00Z'));
    expect(JSON.stringify(changes.deletes)).toContain('#upcomingStart');
  });
});

describe('itemChanges', () => {
  it('skips items stored exactly as wanted and never deletes a wanted key', () => {
    const item = { PK: 'a', SK: '1', value: 1 };
    expect(itemChanges([item], [{ ...item }], [{ PK: 'a', SK: '1' }])).toEqual({ puts: [], deletes: [] });
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
