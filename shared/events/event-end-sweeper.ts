import { queryFirst } from '../db/query.js';
import { keyOfItem } from '../db/table-design.js';
import { logger } from '../logger.js';
import { nowBoundary, partnerListingKeys, scheduledEvent } from './event-partner-model.js';
import { syncDerivedItems } from './events-repository.js';

/** End-schedule entries handled per batch; a run takes batches until none is due. */
const BATCH = 25;

export interface SweepReport {
  /** Events whose end fell due and whose listing items were brought in line. */
  swept: number;
  /** Items written (moved state copies and metaData entries, deleted schedule entries). */
  written: number;
  /** Events that failed (logged; their schedule entry stays, so the next run retries them). */
  failed: number;
}

/**
 * Moves the events that ended from their partner's `upcoming` listing to `past`: reads the due
 * entries of the end schedule (`EVENT_ENDS`, end <= now, one Query per batch) and, for each, brings
 * the event's derived items in line with the clock (`syncDerivedItems`, conditioned on the event's
 * version) and deletes the entry. Idempotent and safe to run concurrently or late: an entry left by a
 * failed or overlapping run is simply handled again. Runs every minute deployed, every few seconds
 * under `npm start`; until it runs, the listing drops ended events from `upcoming` itself.
 */
export async function sweepEndedEvents(now: Date = new Date(), options: { maxBatches?: number; hasTimeFor?: () => boolean } = {}): Promise<SweepReport> {
  const report: SweepReport = { swept: 0, written: 0, failed: 0 };
  const failedKeys = new Set<string>();
  for (let batch = 0; batch < (options.maxBatches ?? 40); batch += 1) {
    const due = (await queryFirst({ partition: partnerListingKeys.endSchedulePartition, range: { lte: nowBoundary(now) } }, BATCH + failedKeys.size))
      .filter((item) => !failedKeys.has(JSON.stringify(keyOfItem(item))));
    for (const item of due.slice(0, BATCH)) {
      if (options.hasTimeFor && !options.hasTimeFor()) return report;
      const { workspaceId, eventId } = scheduledEvent(item);
      try {
        report.written += await syncDerivedItems(workspaceId, eventId, { now, staleKeys: [keyOfItem(item)] });
        report.swept += 1;
      } catch (error) {
        failedKeys.add(JSON.stringify(keyOfItem(item)));
        report.failed += 1;
        logger.error('Sweeping an ended event failed', { workspaceId, eventId, error: error as Error });
      }
    }
    if (due.length < BATCH) break;
  }
  return report;
}
