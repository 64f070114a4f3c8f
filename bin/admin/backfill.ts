import { createHash } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { BackfillRaceError, backfillCheckpointKey, type BackfillCheckpoint, type BackfillStep } from '../../shared/db/backfill.js';
import { db, tableName } from '../../shared/db/client.js';
import { getItem, putItem } from '../../shared/db/conditional.js';
import { entityAttribute, entityOf } from '../../shared/db/table-design.js';

/** Items asked of one Scan page: small pages keep each checkpoint close to the work done. */
const PAGE_SIZE = 200;

export interface BackfillOptions {
  steps: readonly BackfillStep[];
  /** Parallel Scan segments. */
  segments: number;
  /** Ignore saved progress and start over. */
  restart: boolean;
  /** Called after every page, for progress output. */
  onProgress?: (segment: number, checkpoint: BackfillCheckpoint) => void;
}

export interface BackfillReport {
  run: string;
  segments: number;
  scanned: number;
  rebuilt: number;
  written: number;
  /** Items changed by live traffic during the run (they already have their derived items). */
  skipped: number;
  resumedSegments: number;
  alreadyComplete: boolean;
}

/** A run is identified by its steps: the same steps resume the same run; new steps start a new one. */
function runIdOf(steps: readonly BackfillStep[]): string {
  return createHash('sha256').update(steps.map((step) => `${step.entity}:${step.name}`).sort().join('\n')).digest('hex').slice(0, 16);
}

async function readCheckpoint(run: string, segment: number, total: number): Promise<BackfillCheckpoint | undefined> {
  const item = await getItem(backfillCheckpointKey(run, segment, total), { consistent: true });
  return item ? (item.checkpoint as BackfillCheckpoint) : undefined;
}

async function saveCheckpoint(run: string, segment: number, total: number, checkpoint: BackfillCheckpoint): Promise<void> {
  await putItem({ ...backfillCheckpointKey(run, segment, total), ...entityAttribute('BackfillCheckpoint'), checkpoint, updatedAt: new Date().toISOString() });
}

/**
 * Runs the backfill: a segmented parallel Scan of the table (an operator tool, never a request
 * path), applying each step to the items of its entity. Live traffic keeps running: steps are
 * idempotent puts of derived items, and items written by the new code already have them. Progress is
 * saved per segment after each page, so a stopped run resumes where it was.
 */
export async function runBackfill(options: BackfillOptions): Promise<BackfillReport> {
  const run = runIdOf(options.steps);
  const byEntity = new Map<string, BackfillStep[]>();
  for (const step of options.steps) byEntity.set(step.entity, [...(byEntity.get(step.entity) ?? []), step]);
  let resumedSegments = 0;
  const segmentIds = Array.from({ length: options.segments }, (_, index) => index);
  const results = await Promise.all(segmentIds.map(async (segment) => {
    const saved = options.restart ? undefined : await readCheckpoint(run, segment, options.segments);
    if (saved && !saved.done) resumedSegments += 1;
    const checkpoint: BackfillCheckpoint = saved?.done ? saved : (saved ?? { scanned: 0, rebuilt: 0, written: 0, skipped: 0, done: false });
    if (checkpoint.done && saved) return { checkpoint, skipped: true };
    let startKey = checkpoint.lastKey;
    do {
      const page = await db.send(new ScanCommand({
        TableName: tableName(), Segment: segment, TotalSegments: options.segments, Limit: PAGE_SIZE, ExclusiveStartKey: startKey, ConsistentRead: true,
      }));
      for (const item of page.Items ?? []) {
        checkpoint.scanned += 1;
        for (const step of byEntity.get(String(entityOf(item))) ?? []) {
          try {
            checkpoint.written += await step.rebuild(item);
            checkpoint.rebuilt += 1;
          } catch (error) {
            if (!(error instanceof BackfillRaceError)) throw error;
            checkpoint.skipped += 1;
          }
        }
      }
      startKey = page.LastEvaluatedKey;
      checkpoint.lastKey = startKey;
      checkpoint.done = startKey === undefined;
      await saveCheckpoint(run, segment, options.segments, checkpoint);
      options.onProgress?.(segment, checkpoint);
    } while (startKey);
    return { checkpoint, skipped: false };
  }));
  const sum = (field: 'scanned' | 'rebuilt' | 'written' | 'skipped') => results.reduce((total, { checkpoint }) => total + checkpoint[field], 0);
  return {
    run,
    segments: options.segments,
    scanned: sum('scanned'),
    rebuilt: sum('rebuilt'),
    written: sum('written'),
    skipped: sum('skipped'),
    resumedSegments,
    alreadyComplete: results.every(({ skipped }) => skipped),
  };
}
