import type { Context, ScheduledEvent } from 'aws-lambda';
import { DYNAMO_LIMITS, worstCaseCallMs, withTimeBudget } from '../../shared/db/time-budget.js';
import { reconcileDueRefunds, type ReconcileReport } from '../../shared/invoices/refund-reconciler.js';
import { logger } from '../../shared/logger.js';
import { traced } from '../../shared/observability/tracing.js';

/**
 * Time one refund may take: its reads, the processor call and a completion resent a few times. A run
 * starts no refund it could not finish within the function's time budget.
 */
const PER_REFUND_MS = 6 * worstCaseCallMs() + DYNAMO_LIMITS.requestTimeoutMs;

/**
 * Runs every minute (EventBridge schedule, lib/refund-reconciler.ts): finishes the refunds whose
 * request reserved the amount but never completed (crash, timeout, DynamoDB unavailable), so money
 * is never left reserved without a refund and its ledger entry.
 */
async function reconcile(_event: ScheduledEvent, context: Context): Promise<ReconcileReport> {
  logger.addContext(context);
  const report = await withTimeBudget(context.getRemainingTimeInMillis(), () => reconcileDueRefunds(new Date(), () => context.getRemainingTimeInMillis() > PER_REFUND_MS));
  // A run with nothing due (almost every minute) logs at debug: npm start's console stays readable.
  if (report.due > 0) logger.info('Refund reconciliation', { ...report });
  else logger.debug('Refund reconciliation', { ...report });
  return report;
}

export const handler = traced(reconcile);
