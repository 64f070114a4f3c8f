import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { failedConditionIndices, isTransactionContention } from '../db/cancellation.js';
import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '../db/batch-get.js';
import { db, tableName } from '../db/client.js';
import { legacyQueryAll as queryAll, legacyQueryPage as queryPage } from '../db/legacy-query.js';
import { TABLE_KEYS } from '../db/table-design.js';
import { ConflictError } from '../errors.js';
import {
  OBJECT_TYPES, PROPERTY_NAME_GUARD_ENTITY, fromPropertyItem, normalizePropertyName, propertyKeys, toPropertyItem,
  type ObjectType, type Property, type PropertyStatus,
} from './property-entity.js';

/** The property changed since it was read: the caller re-reads (no If-Match) or answers 409 (If-Match). */
export class PropertyVersionConflictError extends ConflictError {
  constructor() {
    super('The property was modified by another request. Re-read it and retry with the current version.');
  }
}

/**
 * DynamoDB cancelled the transaction because another transaction touched the same items at the same
 * moment (`TransactionConflict`): nothing was written and the same write may simply be retried.
 */
export class PropertyWriteContentionError extends ConflictError {
  constructor() {
    super('The property is being modified by another request at the same moment. Retry the request.');
  }
}

/** Another property of the same objectType already has this name (case-insensitively). */
export class PropertyNameTakenError extends ConflictError {
  constructor(name: string, objectType: ObjectType) {
    super(`A ${objectType} property named "${name}" already exists (names are unique per objectType, case-insensitively).`);
  }
}

function nameGuardItem(workspaceId: string, property: Property): Record<string, unknown> {
  return {
    ...propertyKeys.nameGuard(workspaceId, property.objectType, property.name),
    [TABLE_KEYS.entityType]: PROPERTY_NAME_GUARD_ENTITY,
    propertyId: property.id,
    // Copies that let the guard partition serve `sort=name` lists with the objectType/status filters.
    objectType: property.objectType,
    status: property.status,
  };
}

/** Reads one property of the workspace; another workspace's property is simply absent. */
export async function getProperty(workspaceId: string, id: string, options: { consistent?: boolean } = {}): Promise<Property | undefined> {
  const { Item } = await db.send(new GetCommand({
    TableName: tableName(),
    Key: propertyKeys.property(workspaceId, id),
    ConsistentRead: options.consistent ?? false,
  }));
  return Item ? fromPropertyItem(Item) : undefined;
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

/** Creates a property and claims its name in one transaction; a taken name is a PropertyNameTakenError. */
export async function createProperty(workspaceId: string, property: Property): Promise<void> {
  try {
    await db.send(new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: toPropertyItem(workspaceId, property),
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: nameGuardItem(workspaceId, property),
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
          },
        },
      ],
    }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      if (failedConditionIndices(error).includes(1)) throw new PropertyNameTakenError(property.name, property.objectType);
      if (isTransactionContention(error)) throw new PropertyWriteContentionError();
    }
    throw error;
  }
}

/**
 * Replaces `current` by `next`, conditional on the version that was read. When the normalised name
 * changes, the old guard is released and the new one claimed in the same transaction, so a name is
 * never both free and taken, or taken twice.
 */
export async function saveProperty(workspaceId: string, current: Property, next: Property): Promise<void> {
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
    {
      Put: {
        TableName: tableName(),
        Item: toPropertyItem(workspaceId, next),
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': current.version },
      },
    },
  ];
  const renamed = normalizePropertyName(current.name) !== normalizePropertyName(next.name);
  if (renamed) {
    items.push(
      { Delete: { TableName: tableName(), Key: propertyKeys.nameGuard(workspaceId, current.objectType, current.name) } },
      {
        Put: {
          TableName: tableName(),
          Item: nameGuardItem(workspaceId, next),
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
        },
      },
    );
  } else if (current.status !== next.status) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: propertyKeys.nameGuard(workspaceId, current.objectType, current.name),
        UpdateExpression: 'SET #status = :status',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': next.status },
      },
    });
  }
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const failed = failedConditionIndices(error);
      if (failed.includes(0)) throw new PropertyVersionConflictError();
      if (failed.includes(2)) throw new PropertyNameTakenError(next.name, next.objectType);
      if (isTransactionContention(error)) throw new PropertyWriteContentionError();
    }
    throw error;
  }
}

export interface PropertyListQuery {
  page: number;
  limit: number;
  sort: 'name' | 'createdAt' | 'updatedAt';
  direction: 'asc' | 'desc';
  objectType?: ObjectType;
  status?: PropertyStatus;
}

function filterOf(query: PropertyListQuery) {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (query.objectType) {
    conditions.push('#objectType = :objectType');
    names['#objectType'] = 'objectType';
    values[':objectType'] = query.objectType;
  }
  if (query.status) {
    conditions.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = query.status;
  }
  return conditions.length === 0
    ? {}
    : { FilterExpression: conditions.join(' AND '), ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/** Lower-cased name then objectType: the order of a `sort=name` list. */
function nameOrderKey(guard: Record<string, unknown>): string {
  const objectType = guard.objectType as string;
  return `${(guard[TABLE_KEYS.sortKey] as string).slice(objectType.length + 1)}\u0000${objectType}`;
}

/**
 * `sort=name` from the name-guard partition, whose sort key is `<objectType>#<lower(name)>`: one
 * Query per objectType in scope (one with the `objectType` filter, four without), each reading only
 * as deep as the requested page, merged by name; then one BatchGetItem for the page's properties.
 */
async function listPropertiesByName(workspaceId: string, query: PropertyListQuery): Promise<{ items: Property[]; hasMore: boolean }> {
  const ascending = query.direction === 'asc';
  const end = (query.page + 1) * query.limit;
  const objectTypes = query.objectType ? [query.objectType] : OBJECT_TYPES;
  const statusFilter = query.status
    ? { FilterExpression: '#status = :status', names: { '#status': 'status' }, values: { ':status': query.status } }
    : undefined;
  const pages = await Promise.all(objectTypes.map((objectType) => {
    const guardKey = propertyKeys.nameGuard(workspaceId, objectType, '');
    return queryPage({
      TableName: tableName(),
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ...(statusFilter ? { FilterExpression: statusFilter.FilterExpression } : {}),
      ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey, '#sk': TABLE_KEYS.sortKey, ...statusFilter?.names },
      ExpressionAttributeValues: { ':pk': guardKey[TABLE_KEYS.partitionKey], ':prefix': guardKey[TABLE_KEYS.sortKey], ...statusFilter?.values },
      ScanIndexForward: ascending,
    }, 0, end);
  }));
  const merged = pages.flatMap((page) => page.items).sort((a, b) => {
    const order = nameOrderKey(a) < nameOrderKey(b) ? -1 : nameOrderKey(a) > nameOrderKey(b) ? 1 : 0;
    return ascending ? order : -order;
  });
  const ids = merged.slice(query.page * query.limit, end).map((guard) => guard.propertyId as string);
  const properties = await getPropertiesByIds(workspaceId, ids);
  return { items: ids.flatMap((id) => properties.get(id) ?? []), hasMore: merged.length > end || pages.some((page) => page.hasMore) };
}

/**
 * One page of the workspace's properties. `createdAt` follows the key order of the property
 * partition (ids are time-ordered) and `name` the key order of the name guards: both read only as
 * deep as the requested page. `updatedAt` has no key order, so it reads the workspace's whole
 * (small, bounded) property collection and sorts it in memory.
 */
export async function listProperties(workspaceId: string, query: PropertyListQuery): Promise<{ items: Property[]; hasMore: boolean }> {
  if (query.sort === 'name') return listPropertiesByName(workspaceId, query);
  const filter = filterOf(query);
  const base = {
    TableName: tableName(),
    KeyConditionExpression: '#pk = :pk',
    ...filter,
    ExpressionAttributeNames: { ...filter.ExpressionAttributeNames, '#pk': TABLE_KEYS.partitionKey },
    ExpressionAttributeValues: { ...filter.ExpressionAttributeValues, ':pk': propertyKeys.propertyPartition(workspaceId) },
  };
  if (query.sort === 'createdAt') {
    const { items, hasMore } = await queryPage({ ...base, ScanIndexForward: query.direction === 'asc' }, query.page, query.limit);
    return { items: items.map(fromPropertyItem), hasMore };
  }
  const all = (await queryAll(base)).map(fromPropertyItem);
  const sign = query.direction === 'asc' ? 1 : -1;
  all.sort((a, b) => sign * (a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const start = query.page * query.limit;
  return { items: all.slice(start, start + query.limit), hasMore: all.length > start + query.limit };
}
