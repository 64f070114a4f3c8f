import { IdempotencyKeyReusedError } from '../errors.js';
import type { CreateRefundInput, Payment, RecordPaymentInput, Refund } from './invoice-model.js';

/**
 * Body idempotency keys of payments and refunds (API.md): the same key with the same request returns
 * the record it made; with a different request it is 409 `idempotency_key_reused`, never the first
 * record passed off as the answer to a request it does not match (the amount the client meant would
 * silently never be recorded).
 */

const sameInstant = (a: string, b: string) => Date.parse(a) === Date.parse(b);

/**
 * The fields in which a repeated payment request differs from the payment its key recorded. `paidAt`
 * counts only when sent: the first request may have left it to the server's clock.
 */
export function paymentRequestDifferences(recorded: Payment, request: RecordPaymentInput): string[] {
  const differences: string[] = [];
  if (recorded.amount !== request.amount) differences.push('amount');
  if ((recorded.note ?? undefined) !== request.note) differences.push('note');
  if (request.paidAt !== undefined && !sameInstant(recorded.paidAt, request.paidAt)) differences.push('paidAt');
  return differences;
}

/** What a refund request asked for: from a completed refund, or from the reservation it made. */
export type RefundTerms = Pick<Refund, 'amount' | 'reason' | 'note'>;

/** The fields in which a repeated refund request differs from the refund (or reservation) its key made. */
export function refundRequestDifferences(recorded: RefundTerms, request: CreateRefundInput): string[] {
  const differences: string[] = [];
  if (recorded.amount !== request.amount) differences.push('amount');
  if ((recorded.reason ?? undefined) !== request.reason) differences.push('reason');
  if ((recorded.note ?? undefined) !== request.note) differences.push('note');
  return differences;
}

/** The 409 for a body key reused with a different request, saying what differs and what to do. */
export function bodyKeyReused(what: string, recordedAmount: number, differences: readonly string[]): IdempotencyKeyReusedError {
  return new IdempotencyKeyReusedError(
    `This idempotencyKey was already used for ${what} (amount ${recordedAmount}); this request differs in ${differences.join(', ')}. `
    + 'Repeat the original request to get that record back, or use a new idempotencyKey for a new one. Nothing was changed.',
  );
}
