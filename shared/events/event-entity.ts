import type * as z from 'zod';
import { INDEXES, TABLE_KEYS } from '../db/table-design.js';
import type { eventSchema, productSchema } from '../http/routes/events.js';

/** An event as the API returns it (and as stored, minus keys and internal sort attributes). */
export type Event = z.output<typeof eventSchema>;
export type Product = z.output<typeof productSchema>;

/** A product item: one per product, so checkouts resolve product ids with one BatchGet. */
export interface ProductRecord {
  productId: string;
  eventId: string;
  name: string;
  price: number;
  currency: 'USD' | 'CAD';
  required: boolean;
}

/**
 * Sorted copies of an event: one per sort field of `GET /v1/events`, so every sort order is a plain
 * Query. createdAt has its own copy too because ids only order by the second, createdAt by the ms.
 */
export const EVENT_COPIES = ['createdAt', 'start', 'end', 'name'] as const;
export type EventCopy = (typeof EVENT_COPIES)[number];

const GSI = INDEXES.byReferralCode;

/** Entity-type values written into the `entity` attribute. */
export const EVENT_ENTITIES = { event: 'Event', product: 'Product', copy: 'EventSortCopy', upcoming: 'EventUpcomingCopy' } as const;

/** Internal attributes that never leave the repository. */
export const EVENT_INTERNAL_ATTRIBUTES = ['workspaceId', 'endKey', 'copyOf'] as const;

/** Normalises a timestamp for key order: `toISOString()` always has milliseconds, so strings sort as times. */
export function sortableTime(value: string): string {
  return new Date(value).toISOString();
}

function copySortValue(event: Event, copy: EventCopy): string {
  if (copy === 'name') return event.name.toLowerCase();
  return sortableTime(event[copy]);
}

/**
 * Partner-listing sort-key prefixes inside the referral code's GSI1 partition. `UP*` are the
 * upcoming-only projections (see `upcomingItem`), each with the event field it sorts on.
 */
export const PARTNER_ORDERS = {
  createdAt: { prefix: 'EVCREATED#', field: 'createdAt' },
  start: { prefix: 'EVSTART#', field: 'start' },
  end: { prefix: 'EVEND#', field: 'end' },
  upcomingStart: { prefix: 'UPSTART#', field: 'start' },
  upcomingCreatedAt: { prefix: 'UPCREATED#', field: 'createdAt' },
} as const;
export type PartnerOrder = keyof typeof PARTNER_ORDERS;
export type PartnerSort = 'createdAt' | 'start' | 'end';
/** The upcoming-only projections, written while a listed event has not ended yet. */
export const UPCOMING_ORDERS = ['upcomingStart', 'upcomingCreatedAt'] as const;
export type UpcomingOrder = (typeof UPCOMING_ORDERS)[number];

/** True when the partner listing shows the event: published, public and linked to a partner. */
export function isPartnerListed(event: Event): boolean {
  return event.status === 'published' && event.visibility === 'public' && event.referral_code !== undefined;
}

export const eventKeys = {
  /** Main item: Query on the partition lists a workspace's events by creation time. */
  event: (workspaceId: string, eventId: string) => ({ [TABLE_KEYS.partitionKey]: `WS#${workspaceId}#EVENTS`, [TABLE_KEYS.sortKey]: eventId }),
  /** Sorted copy: `WS#<ws>#EVENTS#BY_START`, SK `<sortable start>#<id>`. */
  copy: (workspaceId: string, event: Event, copy: EventCopy) => ({
    [TABLE_KEYS.partitionKey]: eventKeys.copyPartition(workspaceId, copy),
    [TABLE_KEYS.sortKey]: `${copySortValue(event, copy)}#${event.id}`,
  }),
  copyPartition: (workspaceId: string, copy: EventCopy) => `WS#${workspaceId}#EVENTS#BY_${copy.toUpperCase()}`,
  product: (workspaceId: string, productId: string) => ({ [TABLE_KEYS.partitionKey]: `WS#${workspaceId}#PRODUCTS`, [TABLE_KEYS.sortKey]: productId }),
  /**
   * Partner listing keys (sparse: only on listed events). The main item carries the createdAt order,
   * the start and end copies carry theirs, all in the referral code's GSI1 partition next to the partner.
   */
  partnerIndex: (event: Event, order: PartnerOrder) => ({
    [GSI.partitionKey]: eventKeys.partnerPartition(event.referral_code ?? ''),
    [GSI.sortKey]: `${PARTNER_ORDERS[order].prefix}${sortableTime(event[PARTNER_ORDERS[order].field])}#${event.id}`,
  }),
  /** Upcoming-only projection: fixed key per event and order, so an update can delete it blindly. */
  upcoming: (workspaceId: string, eventId: string, order: UpcomingOrder) => ({
    [TABLE_KEYS.partitionKey]: `WS#${workspaceId}#EVENTS#UPCOMING`,
    [TABLE_KEYS.sortKey]: `${eventId}#${order}`,
  }),
  partnerPartition: (code: string) => `REFCODE#${code}`,
};

/** The full stored item of the main event record. */
export function eventItem(workspaceId: string, event: Event): Record<string, unknown> {
  return {
    ...event,
    ...eventKeys.event(workspaceId, event.id),
    ...(isPartnerListed(event) ? eventKeys.partnerIndex(event, 'createdAt') : {}),
    [TABLE_KEYS.entityType]: EVENT_ENTITIES.event,
    workspaceId,
    endKey: sortableTime(event.end),
  };
}

/** The stored item of one sorted copy; start/end copies also serve the partner listing. */
export function eventCopyItem(workspaceId: string, event: Event, copy: EventCopy): Record<string, unknown> {
  const partner = (copy === 'start' || copy === 'end') && isPartnerListed(event) ? eventKeys.partnerIndex(event, copy) : {};
  return {
    ...event,
    ...eventKeys.copy(workspaceId, event, copy),
    ...partner,
    [TABLE_KEYS.entityType]: EVENT_ENTITIES.copy,
    workspaceId,
    copyOf: copy,
    endKey: sortableTime(event.end),
  };
}

export function productItem(workspaceId: string, eventId: string, product: Product): Record<string, unknown> {
  const record: ProductRecord = {
    productId: product.id, eventId, name: product.name, price: product.price, currency: product.currency, required: product.required,
  };
  return { ...record, ...eventKeys.product(workspaceId, product.id), [TABLE_KEYS.entityType]: EVENT_ENTITIES.product };
}

/** True while the partner listing's `upcoming` filter includes the event (its end is in the future). */
export function isUpcoming(event: Event, now: Date): boolean {
  return Date.parse(event.end) > now.getTime();
}

/**
 * Upcoming-only projection of a listed event, in the partner's GSI1 partition. It expires (TTL) when
 * the event ends, so `filter=upcoming` sorted by start or createdAt reads no past events: only the
 * few that ended since DynamoDB's lazy TTL sweep last ran, which the `endKey` filter drops.
 */
export function upcomingItem(workspaceId: string, event: Event, order: UpcomingOrder): Record<string, unknown> {
  return {
    ...event,
    ...eventKeys.upcoming(workspaceId, event.id, order),
    ...eventKeys.partnerIndex(event, order),
    [TABLE_KEYS.entityType]: EVENT_ENTITIES.upcoming,
    [TABLE_KEYS.ttl]: Math.ceil(Date.parse(event.end) / 1000),
    workspaceId,
    copyOf: order,
    endKey: sortableTime(event.end),
  };
}
