/**
 * Backfills: when the data design adds derived items (projections, index items) to an entity, the
 * entity's module exports a step that rebuilds them from one stored main item. The admin command
 * `npm run admin -- backfill` walks the table (a segmented, resumable Scan: an operator tool, never a
 * request path) and applies every step to the items of its entity. Steps must be idempotent: running
 * the backfill twice, or over items written after the new code went live, changes nothing.
 */
export interface BackfillStep {
  /** What the step adds, for the command's report: `invoice projections by customer and status`. */
  name: string;
  /** The entity type (the table design's entity attribute) of the main items it rebuilds from. */
  entity: string;
  /** Writes the derived items of one stored main item; returns how many items it wrote. */
  rebuild(item: Record<string, unknown>): Promise<number>;
}
