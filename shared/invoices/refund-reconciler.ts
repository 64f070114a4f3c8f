import { logger } from '../logger.js';
import { RefundDeclinedError } from '../payments/payment-processor.js';
import type { RefundDue } from './invoice-model.js';
import { finishRefund } from './invoice-payments-service.js';
import * as repository from './invoices-repository.js';

/** Refunds looked at per run; a run that finds more leaves them to the next one (one minute later). */
export const RECONCILE_BATCH = 25;

export type RefundOutcome = 'completed' | 'released' | 'already-finished' | 'failed';

export interface ReconcileReport {
  due: number;
  outcomes: Record<RefundOutcome, number>;
}

/**
 * Finishes one reserved refund whose request did not: the processor refund (idempotent by the
 * refund's key, so one the request already made is not made again) and the completion; or, when the
 * processor declines for good, the release of the reserved amount. Reading the reservation first
 * makes it safe to run beside a client's retry: only one completion (or release) can win.
 */
export async function reconcileRefund(due: RefundDue, now: Date): Promise<RefundOutcome> {
  const { workspaceId, paymentId, idempotencyKey } = due;
  const reservation = await repository.getRefundReservation(workspaceId, paymentId, idempotencyKey);
  const record = await repository.getPaymentRecord(workspaceId, paymentId);
  const invoice = record ? await repository.getInvoice(workspaceId, record.invoiceId, { consistent: true }) : undefined;
  const payment = invoice?.payments.find((candidate) => candidate.id === paymentId);
  if (!reservation || reservation.state !== 'reserved' || !record || !invoice || !payment) {
    await repository.dropRefundDue(due);
    return 'already-finished';
  }
  try {
    await finishRefund(workspaceId, { invoice, payment, record, reservation, idempotencyKey }, now);
    return 'completed';
  } catch (error) {
    if (error instanceof repository.IdempotencyKeyTakenError) return 'already-finished';
    if (!(error instanceof RefundDeclinedError)) throw error;
    logger.warn('Refund declined by the processor: releasing the reservation', { workspaceId, paymentId, reason: error.reason });
    try {
      await repository.releaseRefund(workspaceId, record, idempotencyKey, reservation);
    } catch (releaseError) {
      if (releaseError instanceof repository.IdempotencyKeyTakenError) return 'already-finished';
      throw releaseError;
    }
    return 'released';
  }
}

/**
 * One run of the scheduled reconciler: every reserved refund past its `completeBy` (at most
 * RECONCILE_BATCH, oldest first) is completed or released. A refund that fails (DynamoDB or the
 * processor unavailable) keeps its reservation and "due" item and is tried again on the next run.
 * `hasTime` stops the run before the function's own time runs out.
 */
export async function reconcileDueRefunds(now = new Date(), hasTime: () => boolean = () => true): Promise<ReconcileReport> {
  const due = await repository.listRefundsDue(now, RECONCILE_BATCH);
  const outcomes: Record<RefundOutcome, number> = { completed: 0, released: 0, 'already-finished': 0, failed: 0 };
  for (const refund of due) {
    if (!hasTime()) break;
    try {
      outcomes[await reconcileRefund(refund, now)] += 1;
    } catch (error) {
      outcomes.failed += 1;
      logger.error('Reserved refund not reconciled; retried on the next run', { workspaceId: refund.workspaceId, paymentId: refund.paymentId, error: error as Error });
    }
  }
  return { due: due.length, outcomes };
}
