import { updateItem } from './conditional.js';
import type { Condition, UpdateSpec } from './transaction.js';
import { creationOrderKey, exists, itemKey, keyOfItem } from './table-design.js';

/**
 * Backfills: when the data design adds derived items (projections, index items) to an entity, the
 * entity's module exports a step that rebuilds them from one stored main item. The admin command
 * `npm run admin -- backfill` walks the table (a segmented, resumable Scan: an operator tool, never a
 * request path) and applies every step to the items of its entity. Steps must be idempotent: running
 * the backfill twice, or over items written after the new code went live, changes nothing.
 */
export interface BackfillStep {
  // Steps condition their writes on the main item being unchanged since the scan read it (e.g. a
  // ConditionCheck on its version, failing with BackfillRaceError): a concurrent change already
  // wrote the derived items of its own state, and the stale ones must not overwrite them.
  /** What the step adds, for the command's report: `invoice projections by customer and status`. */
  name: string;
  /** The entity type (the table design's entity attribute) of the main items it rebuilds from. */
  entity: string;
  /** Writes the derived items of one stored main item; returns how many items it wrote. */
  rebuild(item: Record<string, unknown>): Promise<number>;
}

/** Where a backfill run keeps its progress: one item per scan segment, so a stopped run resumes. */
export function backfillCheckpointKey(run: string, segment: number, totalSegments: number) {
  return itemKey(`BACKFILL#${run}`, `SEGMENT#${segment}/${totalSegments}`);
}

/** A segment's progress: where its Scan stopped, what it did, whether it finished. */
export interface BackfillCheckpoint {
  lastKey?: Record<string, unknown>;
  scanned: number;
  rebuilt: number;
  written: number;
  skipped: number;
  done: boolean;
}

/** The main item changed after the scan read it: the change wrote its own derived items; skip it. */
export class BackfillRaceError extends Error {
  constructor() {
    super('The item changed while it was being backfilled.');
    this.name = 'BackfillRaceError';
  }
}

/**
 * For steps whose derived data is index attributes on the main item itself: sets them (and only
 * them, so a concurrent change of the item's own fields is never overwritten) on an item that still
 * exists. Returns 1 when it wrote, 0 when the scanned item already carried these values.
 */
export async function addIndexAttributes(item: Record<string, unknown>, attributes: Record<string, string>): Promise<number> {
  if (!changesAttributes(item, attributes)) return 0;
  await updateItem(setAttributes(item, attributes, { ...exists(), onFailed: () => new BackfillRaceError() }));
  return 1;
}

/** Whether the stored item holds other values than `attributes`. */
export function changesAttributes(item: Record<string, unknown>, attributes: Record<string, string>): boolean {
  return Object.entries(attributes).some(([name, value]) => item[name] !== value);
}

/** The update that sets `attributes` (and only them) on the stored item, under `condition`. */
export function setAttributes(item: Record<string, unknown>, attributes: Record<string, string>, condition: Condition): UpdateSpec {
  const entries = Object.entries(attributes);
  return {
    key: keyOfItem(item),
    update: `SET ${entries.map((_entry, index) => `#i${index} = :i${index}`).join(', ')}`,
    names: Object.fromEntries(entries.map(([name], index) => [`#i${index}`, name])),
    values: Object.fromEntries(entries.map(([, value], index) => [`:i${index}`, value])),
    condition,
  };
}

/**
 * The generic step for an entity listed in creation order (`byCreatedAt`): places main items written
 * before that order existed, from their own partition, `createdAt` and `id` (which never change, so a
 * concurrent write, which puts the same values, cannot race it). Projections get theirs from their
 * domain's own step, which rebuilds them with the model's builders.
 */
export function creationOrderBackfill(entity: string, what: string): BackfillStep {
  return {
    name: `${what} in creation order (byCreatedAt)`,
    entity,
    async rebuild(item) {
      if (typeof item.createdAt !== 'string' || typeof item.id !== 'string') return 0;
      return addIndexAttributes(item, creationOrderKey(keyOfItem(item), item.createdAt, item.id));
    },
  };
}
