import { BackfillRaceError, type BackfillStep } from '../db/backfill.js';
import { versionIs } from '../db/conditional.js';
import { transaction } from '../db/transaction.js';
import { PROPERTY_ENTITY, fromPropertyItem, projectionChanges, toPropertyItem, workspaceOfPropertyItem } from './property-model.js';

/**
 * Property list orders and filter projections for properties written before they existed: the
 * property item again with its places in the name and update orders (GSI1, GSI2), and its three
 * filter projections. One transaction conditioned on the version the scan read, so a change made
 * since (which wrote its own) is never overwritten with stale items; puts, so a second run changes
 * nothing.
 */
export const propertyListBackfill: BackfillStep = {
  name: 'property list orders (name, updatedAt) and filter projections (objectType, status)',
  entity: PROPERTY_ENTITY,
  async rebuild(item) {
    const property = fromPropertyItem(item);
    const workspaceId = workspaceOfPropertyItem(item);
    const { puts } = projectionChanges(workspaceId, undefined, property);
    const tx = transaction().put(toPropertyItem(workspaceId, property), { ...versionIs(property.version, 'property'), onFailed: () => new BackfillRaceError() });
    for (const projection of puts) tx.put(projection);
    await tx.commit();
    return 1 + puts.length;
  },
};
