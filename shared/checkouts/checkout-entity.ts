import type * as z from 'zod';
import { TABLE_KEYS } from '../db/table-design.js';
import type { checkoutSchema } from '../http/routes/checkouts.js';

/** Fields computed when a checkout is read; never stored (they would go stale when an event or form is renamed). */
export type ComputedField = 'productsCount' | 'eventName' | 'eventImage' | 'formName' | 'isEventSet';

/** A checkout as stored: the API shape minus the computed fields. */
export type CheckoutRecord = Omit<z.output<typeof checkoutSchema>, ComputedField>;

export const CHECKOUT_ENTITIES = { live: 'Checkout', deleted: 'DeletedCheckout' } as const;

/**
 * Live checkouts: `WS#<ws>#CHECKOUTS` / `<id>` (the list reads the whole partition and sorts in memory).
 * Soft-deleted ones move to `WS#<ws>#CHECKOUTS#DELETED` / `<id>` in the same transaction as the
 * delete, so reads and lists of live checkouts never see them and never pay for them.
 */
export const checkoutKeys = {
  collection: (workspaceId: string) => `WS#${workspaceId}#CHECKOUTS`,
  checkout: (workspaceId: string, checkoutId: string) => ({
    [TABLE_KEYS.partitionKey]: checkoutKeys.collection(workspaceId),
    [TABLE_KEYS.sortKey]: checkoutId,
  }),
  deleted: (workspaceId: string, checkoutId: string) => ({
    [TABLE_KEYS.partitionKey]: `WS#${workspaceId}#CHECKOUTS#DELETED`,
    [TABLE_KEYS.sortKey]: checkoutId,
  }),
};

export function toCheckoutItem(workspaceId: string, record: CheckoutRecord): Record<string, unknown> {
  return { ...record, ...checkoutKeys.checkout(workspaceId, record.id), [TABLE_KEYS.entityType]: CHECKOUT_ENTITIES.live };
}

export function toDeletedCheckoutItem(workspaceId: string, record: CheckoutRecord, deletedAt: string): Record<string, unknown> {
  return { ...record, deletedAt, ...checkoutKeys.deleted(workspaceId, record.id), [TABLE_KEYS.entityType]: CHECKOUT_ENTITIES.deleted };
}
