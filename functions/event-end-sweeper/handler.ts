import type { Context, ScheduledEvent } from 'aws-lambda';
import { DYNAMO_LIMITS, worstCaseCallMs, withTimeBudget } from '../../shared/db/time-budget.js';
import { sweepEndedEvents, type SweepReport } from '../../shared/events/event-end-sweeper.js';
import { logger } from '../../shared/logger.js';
import { traced } from '../../shared/observability/tracing.js';

/**
 * Time one ended event may take: reading the event and its listing items, and the transaction that
 * moves them, each resent a few times. A run starts no event it could not finish within its budget.
 */
const PER_EVENT_MS = 4 * worstCaseCallMs() + DYNAMO_LIMITS.requestTimeoutMs;

/**
 * Scheduled every minute (EventBridge, lib/event-end-sweeper.ts): moves the events that ended from
 * their partner's `upcoming` listing to `past`. A run with failures throws after logging, so the
 * function's error alarm fires; the failed entries stay scheduled and the next run retries them, as
 * it takes up the entries a run left when its time budget ran short.
 */
async function sweep(_event: ScheduledEvent, context: Context): Promise<SweepReport> {
  logger.addContext(context);
  const report = await withTimeBudget(context.getRemainingTimeInMillis(), () => sweepEndedEvents(new Date(), { hasTimeFor: () => context.getRemainingTimeInMillis() > PER_EVENT_MS }));
  // A run with nothing due (almost every run) logs at debug: npm start's console stays readable.
  if (report.swept > 0 || report.failed > 0) logger.info('Swept ended events', { ...report });
  else logger.debug('Swept ended events', { ...report });
  if (report.failed > 0) throw new Error(`${report.failed} ended events could not be swept; they are retried next run`);
  return report;
}

export const handler = traced(sweep);
