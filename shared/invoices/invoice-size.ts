import { ValidationError } from '../errors.js';
import type { Invoice } from './invoice-model.js';

/**
 * An invoice is ONE DynamoDB item (at most 400 KB) that embeds its payments and their refunds (the
 * audit log), so its size is bounded in two steps, measured as serialized JSON (an upper bound of what
 * DynamoDB counts, which stores no quotes or punctuation):
 * - `maxBytes`: what a create or revise may make of it (line items, notes, snapshots). What is left
 *   (about 80 KB: some 35 payments or refunds with a 2,000-character note, hundreds without) stays for
 *   the payments and refunds an accepted invoice will get.
 * - `maxStoredBytes`: with its payments and refunds. A payment or refund that would take the invoice
 *   above it is a 422, decided before any money moves (before the charge, before the refund's
 *   reservation). The ~29 KB kept below DynamoDB's limit absorbs refunds of the same invoice completed
 *   concurrently (a completion appends to the item without a version condition).
 */
export const INVOICE_LIMITS = { maxBytes: 300_000, maxStoredBytes: 380_000 } as const;

/**
 * A card payment not charged yet: its ids, the processor's ids and failure message (it has no note).
 * A refund's processor id, unknown before the processor refunds: the slack added to its measure.
 */
export const CARD_PAYMENT_BYTES = 1_000;
const PROCESSOR_ID_SLACK = 200;

export function serializedBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** Create and revise: 422 on `lineItems` above `maxBytes`, saying what to shorten. */
export function assertInvoiceSize(invoice: Invoice): void {
  const bytes = serializedBytes(invoice);
  if (bytes > INVOICE_LIMITS.maxBytes) {
    throw new ValidationError({
      path: 'lineItems',
      message: `The invoice is too large (${bytes} bytes serialized; at most ${INVOICE_LIMITS.maxBytes}, which keeps room for its payments and refunds). `
        + 'Use fewer line items or shorten their text (description, names, image URLs, eventLocation) or notes.',
    });
  }
}

/**
 * Before a payment or refund is added: 422 when an entry of `entryBytes` would take the invoice above
 * `maxStoredBytes`. Nothing was written and no money moved.
 */
export function assertRoomFor(invoice: Invoice, entryBytes: number, kind: 'payments' | 'refunds'): void {
  if (serializedBytes(invoice) + entryBytes + PROCESSOR_ID_SLACK <= INVOICE_LIMITS.maxStoredBytes) return;
  throw new ValidationError({
    path: '',
    message: `The invoice has no room for more ${kind}: its line items, payments and refunds are stored together, at most ${INVOICE_LIMITS.maxStoredBytes} bytes serialized. `
      + 'One with a shorter note, or none, may still fit.',
  });
}
