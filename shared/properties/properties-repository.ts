import { batchGetItems } from '../db/batch-get.js';
import { getItem, versionIs } from '../db/conditional.js';
import { queryPage, type Page, type PageRequest } from '../db/query.js';
import { notExists } from '../db/table-design.js';
import { transaction, type Transaction } from '../db/transaction.js';
import { ConflictError } from '../errors.js';
import type { SortDirection } from '../model/primitives.js';
import {
  fromPropertyItem, normalizePropertyName, projectedPropertyId, projectionChanges, propertyKeys, propertyListQuery, toNameGuardItem, toPropertyItem,
  type ObjectType, type Property, type PropertyListFilter, type PropertySort,
} from './property-model.js';

/** Another property of the same objectType already has this name (case-insensitively). */
export class PropertyNameTakenError extends ConflictError {
  constructor(name: string, objectType: ObjectType) {
    super(`A ${objectType} property named "${name}" already exists (names are unique per objectType, case-insensitively).`);
  }
}

/** Adds the filter projections that follow a change from `before` to `after`. */
function withProjections(tx: Transaction, workspaceId: string, before: Property | undefined, after: Property): Transaction {
  const { puts, deletes } = projectionChanges(workspaceId, before, after);
  for (const key of deletes) tx.delete(key);
  for (const item of puts) tx.put(item);
  return tx;
}

const nameTaken = (property: Property) => ({ ...notExists(), onFailed: () => new PropertyNameTakenError(property.name, property.objectType) });

/**
 * One property of the workspace; another workspace's property is simply absent. Eventually
 * consistent unless `consistent` (the read of a read-modify-write, which decides on it).
 */
export async function getProperty(workspaceId: string, id: string, options: { consistent?: boolean } = {}): Promise<Property | undefined> {
  const item = await getItem(propertyKeys.property(workspaceId, id), options);
  return item ? fromPropertyItem(item) : undefined;
}

/**
 * Reads many properties of the workspace at once: one BatchGetItem per 100 distinct ids, retrying
 * UnprocessedKeys with backoff. Absent ids are simply missing from the map.
 */
export async function getPropertiesByIds(workspaceId: string, ids: readonly string[]): Promise<Map<string, Property>> {
  const keys = [...new Set(ids)].map((id) => propertyKeys.property(workspaceId, id));
  const items = await batchGetItems(keys);
  return new Map(items.map((item) => {
    const property = fromPropertyItem(item);
    return [property.id, property];
  }));
}

/**
 * Creates a property, claims its name and writes its filter projections in ONE transaction; a taken
 * name is a PropertyNameTakenError (409).
 */
export async function createProperty(workspaceId: string, property: Property): Promise<void> {
  const tx = transaction()
    .put(toPropertyItem(workspaceId, property), { ...notExists(), onFailed: () => new ConflictError('A property with this id already exists.') })
    .put(toNameGuardItem(workspaceId, property), nameTaken(property));
  await withProjections(tx, workspaceId, undefined, property).commit();
}

/**
 * Replaces `current` by `next` in ONE transaction, conditional on the version that was read (a
 * StaleVersionError otherwise): the property, its filter projections and, when the normalised name
 * changes, the old guard released and the new one claimed, so a name is never both free and taken.
 */
export async function saveProperty(workspaceId: string, current: Property, next: Property): Promise<void> {
  const tx = transaction().put(toPropertyItem(workspaceId, next), versionIs(current.version, 'property'));
  if (normalizePropertyName(current.name) !== normalizePropertyName(next.name)) {
    tx.delete(propertyKeys.nameGuard(workspaceId, current.objectType, current.name))
      .put(toNameGuardItem(workspaceId, next), nameTaken(next));
  }
  await withProjections(tx, workspaceId, current, next).commit();
}

export interface PropertyListQuery extends PropertyListFilter {
  sort: PropertySort;
  direction: SortDirection;
}

/**
 * One page of the workspace's properties. Every sort x filter combination is one partition made for
 * it (property-model.ts): unfiltered, the property partition (creation order) or the property items'
 * places in GSI1 (name) and GSI2 (last update); filtered, the matching filter projections in the
 * same three orders, then one BatchGet of the page. One Query per cursor page; the cost never
 * depends on the workspace's other properties.
 */
export async function listProperties(workspaceId: string, list: PropertyListQuery, request: PageRequest): Promise<Page<Property>> {
  const filter = { objectType: list.objectType, status: list.status };
  const scope = { owner: workspaceId, list: 'properties', shape: { ...filter, sort: list.sort, direction: list.direction } };
  const { query, projected } = propertyListQuery(workspaceId, filter, list.sort, list.direction);
  const page = await queryPage(query, request, scope);
  if (!projected) return { ...page, items: page.items.map(fromPropertyItem) };
  const ids = page.items.map(projectedPropertyId);
  const found = await getPropertiesByIds(workspaceId, ids);
  // A property whose status changed between the two reads no longer matches: leave it out.
  const items = ids.flatMap((id) => found.get(id) ?? [])
    .filter((property) => (filter.status === undefined || property.status === filter.status) && (filter.objectType === undefined || property.objectType === filter.objectType));
  return { ...page, items };
}
