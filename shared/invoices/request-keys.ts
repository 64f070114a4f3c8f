import { IdempotencyKeyReusedError } from '../errors.js';
import type { CreateRefundInput, Payment, RecordPaymentInput, Refund } from './invoice-model.js';

/**
 * Body idempotency keys of payments and refunds (API.md "Invoices, payments, refunds, payouts"): a
 * repeated key with the same `amount` (and, for a refund, on the same payment) returns the record it
 * made, unchanged; with another amount it is 409 `idempotency_key_reused`, never the first record
 * passed off as the answer to a request it does not match (the amount the client meant would silently
 * never be recorded). Only the money decides: descriptive fields (`note`, `paidAt`, refund `reason`)
 * of a retry are ignored, so a client that retries without repeating them gets its record back.
 */

/** The fields in which a repeated payment request differs from the payment its key recorded. */
export function paymentRequestDifferences(recorded: Payment, request: RecordPaymentInput): string[] {
  return recorded.amount === request.amount ? [] : ['amount'];
}

/** What a refund request asked for: from a completed refund, or from the reservation it made. */
export type RefundTerms = Pick<Refund, 'amount'>;

/**
 * The fields in which a repeated refund request differs from the refund (or reservation) its key made
 * on the same payment; the key on another payment is told apart by the caller.
 */
export function refundRequestDifferences(recorded: RefundTerms, request: CreateRefundInput): string[] {
  return recorded.amount === request.amount ? [] : ['amount'];
}

/** The 409 for a body key reused with a different request, saying what differs and what to do. */
export function bodyKeyReused(what: string, recordedAmount: number, differences: readonly string[]): IdempotencyKeyReusedError {
  return new IdempotencyKeyReusedError(
    `This idempotencyKey was already used for ${what} (amount ${recordedAmount}); this request differs in ${differences.join(', ')}. `
    + 'Repeat the original request to get that record back, or use a new idempotencyKey for a new one. Nothing was changed.',
  );
}
