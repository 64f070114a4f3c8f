import { itemKey, type ItemKey } from '../db/table-design.js';

/**
 * Keys of the main event items, apart from the event schemas so that other domains can check an event
 * reference (invoice lines, payouts) without bundling the event model.
 */

/**
 * Keys of the main items: the event at `WS#<ws>#EVENTS` / `<id>` (a Query on the partition lists by
 * creation time) and each product at `WS#<ws>#PRODUCTS` / `<productId>`.
 */
export const eventKeys = {
  eventPartition: (workspaceId: string) => `WS#${workspaceId}#EVENTS`,
  event: (workspaceId: string, eventId: string): ItemKey => itemKey(eventKeys.eventPartition(workspaceId), eventId),
  product: (workspaceId: string, productId: string): ItemKey => itemKey(`WS#${workspaceId}#PRODUCTS`, productId),
};

