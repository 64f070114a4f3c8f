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
export const EVENT_ENTITIES = { event: 'Event', product: 'Product', copy: 'EventSortCopy' } as const;

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

/** Partner-listing sort prefixes inside the referral code's GSI1 partition. */
export const PARTNER_SORT_PREFIX = { createdAt: 'EVCREATED#', start: 'EVSTART#', end: 'EVEND#' } as const;
export type PartnerSort = keyof typeof PARTNER_SORT_PREFIX;

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
  partnerIndex: (event: Event, sort: PartnerSort) => ({
    [GSI.partitionKey]: eventKeys.partnerPartition(event.referral_code ?? ''),
    [GSI.sortKey]: `${PARTNER_SORT_PREFIX[sort]}${sortableTime(event[sort])}#${event.id}`,
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
