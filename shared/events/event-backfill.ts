import type { BackfillStep } from '../db/backfill.js';
import { EVENT_ENTITY } from './event-model.js';
import { syncDerivedItems } from './events-repository.js';

/**
 * Rebuilds the derived items of one stored event (sorted copies, filter entries, products, partner
 * listing items) from its main item: only missing or stale ones are written, so a second run writes
 * nothing. Events written before the filter entries existed gain them here.
 */
export const eventDerivedItemsBackfill: BackfillStep = {
  name: 'event sorted copies, filter entries, products and partner listing items',
  entity: EVENT_ENTITY,
  rebuild: (item) => syncDerivedItems(String(item.workspaceId), String(item.id)),
};

/** Every backfill step of the events domain, for the admin command. */
export const EVENT_BACKFILL_STEPS: readonly BackfillStep[] = [eventDerivedItemsBackfill];
