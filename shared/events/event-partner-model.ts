import { createHash } from 'node:crypto';
import { entityAttribute, entityNames, entityOf, indexKey, type IndexName, itemKey, type ItemKey, keyIdentity, keyOfItem, partitionOf } from '../db/table-design.js';
import { partnerKeys } from '../partners/partner-model.js';
import { eventAttributes, sortableTime, type Event } from './event-model.js';

/**
 * The items that put a published, public event linked to a referral code in its partner's listing
 * (`GET /partner/events`, README "Access patterns: partner listing"). All of them are written in the
 * event's transaction; each order and each filter of the listing is a key range of one of them:
 *
 * - the main item and the start/end sorted copies carry GSI1 keys in the code's partition
 *   `REFCODE#<code>`: `EVCREATED#`, `EVSTART#`, `EVEND#` + `<time>#<id>` (every event of the partner;
 *   `upcoming`/`past` by end are the ranges after/before `EVEND#<now>`);
 * - two state copies (full events) at `WS#<ws>#EVENTS#PARTNER` / `<id>#start|createdAt`, in the same
 *   GSI1 partition under `UPCOMING#START#`, `PAST#START#`, `UPCOMING#CREATED#` or `PAST#CREATED#`:
 *   `upcoming`/`past` by start and by createdAt, whose membership changes with the clock, not with a
 *   write. The end sweeper moves them from `UPCOMING` to `PAST` when the event ends;
 * - one metaData entry (keys only) per metaData pair, in a partition of its own per (code, key, value):
 *   table `REFCODE#<code>#META#<hash>` / `<end>#<id>` (by end), GSI1 `…#<state>` / `<start>#<id>` (by
 *   start) and GSI2 `…#<state>` / `<createdAt>#<id>` (by createdAt): one filter is one Query;
 * - while the event is upcoming, an end-schedule entry `EVENT_ENDS` / `<end>#<ws>#<id>`: what the
 *   sweeper reads to find the events that just ended;
 * - one count per (code, key, value), `REFCODE#<code>#META#<hash>#COUNT` / `COUNT`: how many listed
 *   events carry the pair, moved in the transaction that writes or deletes an entry. With several
 *   metaData filters the listing reads the counts and queries the pair with the fewest events.
 */

export const EVENT_PARTNER_COPY_ENTITY = 'EventPartnerCopy';
export const EVENT_META_ENTRY_ENTITY = 'EventMetaEntry';
export const EVENT_END_SCHEDULE_ENTITY = 'EventEndSchedule';
export const EVENT_META_COUNT_ENTITY = 'EventMetaCount';

/** The listing state of an event: `UPCOMING` while its end is in the future (API.md), then `PAST`. */
export type ListingState = 'UPCOMING' | 'PAST';
export type PartnerSort = 'createdAt' | 'start' | 'end';
export type PartnerFilter = 'all' | 'upcoming' | 'past';

/** True when the partner listing shows the event: published, public and linked to a partner. */
export function isPartnerListed(event: Event): boolean {
  return event.status === 'published' && event.visibility === 'public' && event.referral_code !== undefined;
}

/** True while the partner listing's `upcoming` filter includes the event (its end is in the future). */
export function isUpcoming(event: Pick<Event, 'end'>, now: Date): boolean {
  return Date.parse(event.end) > now.getTime();
}

export function stateAt(event: Pick<Event, 'end'>, now: Date): ListingState {
  return isUpcoming(event, now) ? 'UPCOMING' : 'PAST';
}

/** GSI1 sort-key prefixes of the orders over every event of the partner. */
const ALL_PREFIXES = { createdAt: 'EVCREATED#', start: 'EVSTART#', end: 'EVEND#' } as const;
/** The state copies: one per order whose state cannot be a range of the order itself. */
export const STATE_ORDERS = ['start', 'createdAt'] as const;
export type StateOrder = (typeof STATE_ORDERS)[number];
const statePrefix = (state: ListingState, order: StateOrder) => `${state}#${order === 'start' ? 'START' : 'CREATED'}#`;

/** The indexes that order a metaData partition by start and by createdAt (the table orders it by end). */
export const META_INDEXES = { start: 'byReferralCode', createdAt: 'byEventBalance' } as const satisfies Record<StateOrder, IndexName>;

/** Above every id and time character: `<time>#~` sorts after every `<time>#<id>` of that time. */
const AFTER_IDS = '~';

/** The position of `now` in a `<time>#<id>` order: keys up to it have a time <= now. */
export function nowBoundary(now: Date): string {
  return `${now.toISOString()}#${AFTER_IDS}`;
}

/** metaData keys and values are free text: their partition is named by a digest of the pair. */
function metaDigest(key: string, value: string): string {
  return createHash('sha256').update(JSON.stringify([key, value])).digest('base64url').slice(0, 32);
}

const timeKey = (event: Event, field: 'start' | 'end' | 'createdAt') => `${sortableTime(event[field])}#${event.id}`;

export const partnerListingKeys = {
  /** GSI1 partition of everything linked to a code (the partner, the listed events). */
  codePartition: (code: string) => partnerKeys.codePartition(code),
  /** Sort-key prefix, in the code's partition, of one order over every event. */
  allPrefix: (sort: PartnerSort) => ALL_PREFIXES[sort],
  /** Sort-key prefix, in the code's partition, of the state copies of one state and order. */
  statePrefix,
  stateCopy: (workspaceId: string, eventId: string, order: StateOrder): ItemKey => itemKey(`WS#${workspaceId}#EVENTS#PARTNER`, `${eventId}#${order}`),
  /** The upcoming-only copies of the previous design (TTL at the event's end): deleted when met. */
  legacyUpcoming: (workspaceId: string, eventId: string): ItemKey[] =>
    ['upcomingStart', 'upcomingCreatedAt'].map((order) => itemKey(`WS#${workspaceId}#EVENTS#UPCOMING`, `${eventId}#${order}`)),
  /** Table partition of one (code, metaData key, value), ordered by end. */
  metaPartition: (code: string, key: string, value: string) => `${partnerKeys.codePartition(code)}#META#${metaDigest(key, value)}`,
  /** Index partition of one (code, key, value) and state, ordered by start (GSI1) and createdAt (GSI2). */
  metaStatePartition: (code: string, key: string, value: string, state: ListingState) => `${partnerListingKeys.metaPartition(code, key, value)}#${state}`,
  metaEntry: (event: Event, key: string, value: string): ItemKey => itemKey(partnerListingKeys.metaPartition(event.referral_code ?? '', key, value), timeKey(event, 'end')),
  /** How many listed events carry one (code, key, value): the selectivity of that metaData filter. */
  metaCount: (code: string, key: string, value: string): ItemKey => metaCountKey(partnerListingKeys.metaPartition(code, key, value)),
  /** The end schedule: one partition for the platform, ordered by end. */
  endSchedulePartition: 'EVENT_ENDS',
  endSchedule: (workspaceId: string, event: Pick<Event, 'id' | 'end'>): ItemKey =>
    itemKey(partnerListingKeys.endSchedulePartition, `${sortableTime(event.end)}#${workspaceId}#${event.id}`),
};

function metaCountKey(metaPartition: string): ItemKey {
  return itemKey(`${metaPartition}#COUNT`, 'COUNT');
}

/** The GSI1 keys of a listed event in one order over all the partner's events. */
export function allOrderIndex(event: Event, sort: PartnerSort): Record<string, string> {
  return indexKey('byReferralCode', partnerListingKeys.codePartition(event.referral_code ?? ''), `${ALL_PREFIXES[sort]}${timeKey(event, sort)}`);
}

function stateCopyItem(workspaceId: string, event: Event, order: StateOrder, state: ListingState): Record<string, unknown> {
  return {
    ...eventAttributes(workspaceId, event),
    ...partnerListingKeys.stateCopy(workspaceId, event.id, order),
    ...indexKey('byReferralCode', partnerListingKeys.codePartition(event.referral_code ?? ''), `${statePrefix(state, order)}${timeKey(event, order)}`),
    ...entityAttribute(EVENT_PARTNER_COPY_ENTITY),
    copyOf: order,
  };
}

function metaEntryItem(workspaceId: string, event: Event, key: string, value: string, state: ListingState): Record<string, unknown> {
  const partition = partnerListingKeys.metaStatePartition(event.referral_code ?? '', key, value, state);
  return {
    ...partnerListingKeys.metaEntry(event, key, value),
    ...indexKey(META_INDEXES.start, partition, timeKey(event, 'start')),
    ...indexKey(META_INDEXES.createdAt, partition, timeKey(event, 'createdAt')),
    ...entityAttribute(EVENT_META_ENTRY_ENTITY),
    workspaceId,
    eventId: event.id,
    endKey: sortableTime(event.end),
  };
}

function endScheduleItem(workspaceId: string, event: Event): Record<string, unknown> {
  return { ...partnerListingKeys.endSchedule(workspaceId, event), ...entityAttribute(EVENT_END_SCHEDULE_ENTITY), workspaceId, eventId: event.id };
}

/** The partner-listing items of an event at `now` (none when it is not listed). */
export function partnerListingItems(workspaceId: string, event: Event, now: Date): Record<string, unknown>[] {
  if (!isPartnerListed(event)) return [];
  const state = stateAt(event, now);
  return [
    ...STATE_ORDERS.map((order) => stateCopyItem(workspaceId, event, order, state)),
    ...Object.entries(event.metaData ?? {}).map(([key, value]) => metaEntryItem(workspaceId, event, key, value, state)),
    ...(state === 'UPCOMING' ? [endScheduleItem(workspaceId, event)] : []),
  ];
}

/**
 * Keys of partner-listing items that may exist although the clock says otherwise: the end schedule of
 * an event that ended but was not swept yet, and the previous design's upcoming copies.
 */
export function partnerKeysBeyondTheClock(workspaceId: string, event: Event): ItemKey[] {
  return [partnerListingKeys.endSchedule(workspaceId, event), ...partnerListingKeys.legacyUpcoming(workspaceId, event.id)];
}

/** Where an end-schedule entry points. */
export function scheduledEvent(item: Record<string, unknown>): { workspaceId: string; eventId: string } {
  return { workspaceId: String(item.workspaceId), eventId: String(item.eventId) };
}

/** Where a metaData entry points, and when the event ends. */
export function metaEntryTarget(item: Record<string, unknown>): { workspaceId: string; eventId: string } {
  return { workspaceId: String(item.workspaceId), eventId: String(item.eventId) };
}

/** A change of one metaData count (`delta` listed events), as an update of a transaction. */
export interface MetaCountChange {
  key: ItemKey;
  update: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}


/**
 * The count updates that go with replacing the `existing` derived items of an event by `wanted`:
 * +1 on a pair's count for each metaData entry written for the first time, -1 for each one deleted
 * (an entry that only changes state or keys within its pair changes nothing). Counts are hints: they
 * choose which of several filters is read, never which events are answered.
 */
export function metaCountChanges(existing: readonly Record<string, unknown>[], wanted: readonly Record<string, unknown>[]): MetaCountChange[] {
  const entries = (items: readonly Record<string, unknown>[]) => new Map(items.filter((item) => entityOf(item) === EVENT_META_ENTRY_ENTITY).map((item) => [keyIdentity(keyOfItem(item)), item]));
  const before = entries(existing);
  const after = entries(wanted);
  const deltas = new Map<string, { key: ItemKey; delta: number }>();
  const add = (entry: Record<string, unknown>, delta: number) => {
    const key = metaCountKey(partitionOf(entry));
    const id = keyIdentity(key);
    deltas.set(id, { key, delta: (deltas.get(id)?.delta ?? 0) + delta });
  };
  for (const [id, entry] of before) if (!after.has(id)) add(entry, -1);
  for (const [id, entry] of after) if (!before.has(id)) add(entry, 1);
  return [...deltas.values()].filter(({ delta }) => delta !== 0).map(({ key, delta }) => ({
    key,
    update: 'SET #entity = :entity ADD #events :delta',
    names: { ...entityNames(), '#events': 'events' },
    values: { ':entity': EVENT_META_COUNT_ENTITY, ':delta': delta },
  }));
}

/** The number of listed events a stored count says carry its pair (0 when absent). */
export function metaCountValue(item: Record<string, unknown> | undefined): number {
  return typeof item?.events === 'number' ? Math.max(0, item.events) : 0;
}
