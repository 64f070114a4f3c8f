import { isDeepStrictEqual } from 'node:util';
import { entityAttribute, itemKey, type ItemKey, keyIdentity, keyOfItem } from '../db/table-design.js';
import {
  allOrderIndex, isPartnerListed, metaCountChanges, partnerKeysBeyondTheClock, partnerListingItems, partnerListingKeys, type MetaCountChange,
} from './event-partner-model.js';
import {
  EVENT_SORT_FIELDS, eventAttributes, sortableTime, toEventItem, toProductItem,
  type Event, type EventSortField, type EventStatus, type EventVisibility,
} from './event-model.js';

/**
 * The items an event is stored as besides its main item, and the lists they serve (README "Events and
 * the partner listing: access patterns"). Every derived item is a pure function of the event (and, for
 * the partner listing's upcoming projections, of the time), so a write computes what the event's items
 * must be and the difference with what they were, and a backfill rebuilds them from the main item.
 *
 * - Sorted copies (full events): `WS#<ws>#EVENTS#BY_<FIELD>` / `<sortable value>#<id>`, one per sort
 *   field of `GET /v1/events`: the unfiltered list is one Query of full items.
 * - Filter entries (keys only): `WS#<ws>#EVENTS#BY_<FIELD>#<status>#<visibility>` / the same sort key,
 *   one per sort field in the partition of the event's status and visibility: both filters are one
 *   Query of exactly the matches, one filter the merge of two such partitions; then one BatchGet.
 * - Partner listing items of published public events linked to a code: `event-partner-model.ts`.
 */

export const EVENT_COPY_ENTITY = 'EventSortCopy';
export const EVENT_FILTER_ENTRY_ENTITY = 'EventFilterEntry';

/**
 * The sort key of an event in a sort field's order: the value, then the id for ties. Times are fixed
 * width, so `#` can follow them; a name (case-insensitive) is followed by NUL, which sorts below every
 * character a name can hold (text with NUL is refused), so `gala` comes before `gala 2027` and `gala!`
 * (with `#`, a space or `!` sorted below it).
 */
function sortKey(event: Pick<Event, 'id' | 'name' | EventSortField>, field: EventSortField, separator = field === 'name' ? '\u0000' : '#'): string {
  const value = field === 'name' ? event.name.toLowerCase() : sortableTime(event[field]);
  return `${value}${separator}${event.id}`;
}

export const listingKeys = {
  /** Sorted copies of one field: `WS#<ws>#EVENTS#BY_START`, ... */
  copyPartition: (workspaceId: string, field: EventSortField) => `WS#${workspaceId}#EVENTS#BY_${field.toUpperCase()}`,
  copy: (workspaceId: string, event: Event, field: EventSortField): ItemKey =>
    itemKey(listingKeys.copyPartition(workspaceId, field), sortKey(event, field)),
  /** Filter entries of one field, status and visibility: `WS#<ws>#EVENTS#BY_START#draft#public`. */
  filterPartition: (workspaceId: string, field: EventSortField, status: EventStatus, visibility: EventVisibility) =>
    `${listingKeys.copyPartition(workspaceId, field)}#${status}#${visibility}`,
  filterEntry: (workspaceId: string, event: Event, field: EventSortField): ItemKey =>
    itemKey(listingKeys.filterPartition(workspaceId, field, event.status, event.visibility), sortKey(event, field)),
  /**
   * The name copy and filter entry as the previous design keyed them (`<name>#<id>`): deleted when met,
   * by the event's next write or the backfill.
   */
  legacyName: (workspaceId: string, event: Event): ItemKey[] => [
    itemKey(listingKeys.copyPartition(workspaceId, 'name'), sortKey(event, 'name', '#')),
    itemKey(listingKeys.filterPartition(workspaceId, 'name', event.status, event.visibility), sortKey(event, 'name', '#')),
  ],
};

/** The main item, in the partner listing's createdAt order when listed. */
export function mainEventItem(workspaceId: string, event: Event): Record<string, unknown> {
  return toEventItem(workspaceId, event, isPartnerListed(event) ? allOrderIndex(event, 'createdAt') : {});
}

/** One sorted copy; the start and end copies also serve the partner listing's orders. */
function copyItem(workspaceId: string, event: Event, field: EventSortField): Record<string, unknown> {
  const partner = (field === 'start' || field === 'end') && isPartnerListed(event) ? allOrderIndex(event, field) : {};
  return { ...eventAttributes(workspaceId, event), ...listingKeys.copy(workspaceId, event, field), ...partner, ...entityAttribute(EVENT_COPY_ENTITY), copyOf: field };
}

function filterEntryItem(workspaceId: string, event: Event, field: EventSortField): Record<string, unknown> {
  return { ...listingKeys.filterEntry(workspaceId, event, field), ...entityAttribute(EVENT_FILTER_ENTRY_ENTITY), eventId: event.id };
}

/** Every item the event is stored as at `now`, besides the main item. */
export function derivedEventItems(workspaceId: string, event: Event, now: Date): Record<string, unknown>[] {
  return [
    ...EVENT_SORT_FIELDS.map((field) => copyItem(workspaceId, event, field)),
    ...EVENT_SORT_FIELDS.map((field) => filterEntryItem(workspaceId, event, field)),
    ...event.products.map((product) => toProductItem(workspaceId, event.id, product)),
    ...partnerListingItems(workspaceId, event, now),
  ];
}


/** An item as DynamoDB keeps it: undefined attributes are not stored. */
const asStored = (item: Record<string, unknown>) => JSON.parse(JSON.stringify(item)) as unknown;

export interface ItemChanges {
  puts: Record<string, unknown>[];
  deletes: ItemKey[];
  /** The partner listing's metaData counts that follow the entries put for the first time or deleted. */
  counts: MetaCountChange[];
}

/**
 * What turns the `existing` derived items into `wanted`: puts of the new or changed ones, deletes of
 * the keys no longer wanted among `candidates` (keys that may exist), and the metaData count updates
 * that go with them. Never the same key twice, so it fits in one transaction with the main item.
 */
export function itemChanges(wanted: Record<string, unknown>[], existing: Record<string, unknown>[], candidates: ItemKey[] = []): ItemChanges {
  const before = new Map(existing.map((item) => [keyIdentity(keyOfItem(item)), item]));
  const wantedKeys = new Set(wanted.map((item) => keyIdentity(keyOfItem(item))));
  const puts = wanted.filter((item) => {
    const stored = before.get(keyIdentity(keyOfItem(item)));
    return stored === undefined || !isDeepStrictEqual(asStored(stored), asStored(item));
  });
  const deletes = new Map<string, ItemKey>();
  for (const key of [...existing.map(keyOfItem), ...candidates]) {
    const id = keyIdentity(key);
    if (!wantedKeys.has(id)) deletes.set(id, key);
  }
  return { puts, deletes: [...deletes.values()], counts: metaCountChanges(existing, wanted) };
}

/**
 * How the derived items follow a change from `before` (or nothing, on create) to `after` at `now`:
 * computed from the two events, not read, because every derived item is a function of its event.
 */
export function derivedChanges(workspaceId: string, before: Event | undefined, after: Event, now: Date): ItemChanges {
  const existing = before ? derivedEventItems(workspaceId, before, now) : [];
  // An end schedule that fell due stays for the sweeper, which compares with what is stored; the previous
  // designs' upcoming copies and `#`-separated name keys go with the first write.
  const candidates = [
    ...(before && isPartnerListed(before) ? partnerListingKeys.legacyUpcoming(workspaceId, before.id) : []),
    ...(before ? listingKeys.legacyName(workspaceId, before) : []),
  ];
  return itemChanges(derivedEventItems(workspaceId, after, now), existing, candidates);
}

/** Keys a backfill reads to compare the stored derived items of an event with what they must be. */
export function derivedKeysToCheck(workspaceId: string, event: Event, now: Date): ItemKey[] {
  return [...derivedEventItems(workspaceId, event, now).map(keyOfItem), ...partnerKeysBeyondTheClock(workspaceId, event), ...listingKeys.legacyName(workspaceId, event)];
}

/** The id a filter entry points at. */
export function entryEventId(item: Record<string, unknown>): string {
  return item.eventId as string;
}

/** What `GET /v1/events` can be narrowed and ordered by (the route's query, minus paging). */
export interface EventListFilter {
  sort: EventSortField;
  direction: 'asc' | 'desc';
  status?: EventStatus | undefined;
  visibility?: EventVisibility | undefined;
}

/**
 * Where a list reads: the sorted copies when unfiltered, else the filter-entry partitions holding
 * exactly the matching events (one with both filters, two merged with one filter).
 */
export function eventListSource(workspaceId: string, filter: EventListFilter): { copies: string } | { entries: string[] } {
  if (filter.status === undefined && filter.visibility === undefined) return { copies: listingKeys.copyPartition(workspaceId, filter.sort) };
  const statuses: readonly EventStatus[] = filter.status ? [filter.status] : ['draft', 'published'];
  const visibilities: readonly EventVisibility[] = filter.visibility ? [filter.visibility] : ['public', 'private'];
  return { entries: statuses.flatMap((status) => visibilities.map((visibility) => listingKeys.filterPartition(workspaceId, filter.sort, status, visibility))) };
}

