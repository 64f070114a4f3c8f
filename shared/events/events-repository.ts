import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { cancellationCodes } from '../db/cancellation.js';
import { BatchGetCommand, GetCommand, TransactWriteCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { withoutKeys } from '../db/query.js';
import { legacyQueryPage as queryPage } from '../db/legacy-query.js';
import { TABLE_KEYS } from '../db/table-design.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { eventSchema } from '../http/routes/events.js';
import {
  EVENT_COPIES, EVENT_INTERNAL_ATTRIBUTES, UPCOMING_ORDERS, eventCopyItem, eventItem, eventKeys, isPartnerListed, isUpcoming,
  productItem, upcomingItem, type Event, type EventCopy, type ProductRecord,
} from './event-entity.js';

type Item = Record<string, unknown>;
type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

const BATCH_GET_MAX = 100;
const BATCH_GET_ATTEMPTS = 5;

/** Strips keys and internal attributes from an event item (main item or sorted copy). */
export function toEvent(item: Item): Event {
  const stored = withoutKeys(item, EVENT_INTERNAL_ATTRIBUTES);
  // DynamoDB maps come back in no particular order: answer fields in the documented order.
  const event: Item = {};
  for (const field of EVENT_FIELD_ORDER) if (stored[field] !== undefined) event[field] = stored[field];
  if (Array.isArray(event.products)) event.products = (event.products as Item[]).map((product) => pick(product, PRODUCT_FIELD_ORDER));
  if (Array.isArray(event.descriptionBlocks)) event.descriptionBlocks = orderNodes(event.descriptionBlocks);
  return event as Event;
}

const EVENT_FIELD_ORDER = Object.keys(eventSchema.shape);
const PRODUCT_FIELD_ORDER = ['id', 'name', 'price', 'required', 'currency'];
const NODE_FIELD_ORDER = ['type', 'text', 'attrs', 'content', 'marks'];

function pick(value: Item, fields: readonly string[]): Item {
  return Object.fromEntries(fields.filter((field) => value[field] !== undefined).map((field) => [field, value[field]]));
}

/** Rich-text nodes with `type` first; only the node keys of the schema exist, so none is lost. */
function orderNodes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(orderNodes);
  if (typeof value !== 'object' || value === null) return value;
  const node = value as Item;
  const ordered: Item = {};
  for (const key of [...NODE_FIELD_ORDER, ...Object.keys(node).filter((key) => !NODE_FIELD_ORDER.includes(key))]) {
    if (node[key] !== undefined) ordered[key] = key === 'content' || key === 'marks' ? orderNodes(node[key]) : node[key];
  }
  return ordered;
}

function toProductRecord(item: Item): ProductRecord {
  const { productId, eventId, name, price, currency, required } = item as unknown as ProductRecord;
  return { productId, eventId, name, price, currency, required };
}

/** BatchGet of many keys in chunks of 100, retrying unprocessed keys; order of results is not kept. */
async function batchGet(keys: Item[]): Promise<Item[]> {
  const found: Item[] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_MAX) {
    let pending: Item[] = keys.slice(start, start + BATCH_GET_MAX);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= BATCH_GET_ATTEMPTS) throw new Error('BatchGet left keys unprocessed after retries');
      const output: BatchGetCommandOutput = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }));
      found.push(...(output.Responses?.[tableName()] ?? []));
      pending = (output.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Item[];
    }
  }
  return found;
}

function uniqueValidIds(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

/**
 * Events of the workspace by id, in ONE BatchGet (per 100 ids). Absent ids and other workspaces'
 * events are simply missing from the map.
 */
export async function getEventsByIds(workspaceId: string, ids: readonly string[]): Promise<Map<string, Event>> {
  const items = await batchGet(uniqueValidIds(ids).map((id) => eventKeys.event(workspaceId, id)));
  return new Map(items.map((item) => { const event = toEvent(item); return [event.id, event]; }));
}

/** Products of the workspace's events by product id, in ONE BatchGet (per 100 ids). */
export async function getProductsByIds(workspaceId: string, productIds: readonly string[]): Promise<Map<string, ProductRecord>> {
  const items = await batchGet(uniqueValidIds(productIds).map((id) => eventKeys.product(workspaceId, id)));
  return new Map(items.map((item) => { const product = toProductRecord(item); return [product.productId, product]; }));
}

/** One event of the workspace, or undefined (also for another workspace's id). */
export async function findEvent(workspaceId: string, eventId: string): Promise<Event | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: eventKeys.event(workspaceId, eventId), ConsistentRead: true }));
  return Item ? toEvent(Item) : undefined;
}

/**
 * True when a transaction lost a race (a condition failed or another transaction held an item);
 * any other cancellation (e.g. an oversized item) stays an unexpected error.
 */
function isContention(error: unknown): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  const codes = cancellationCodes(error);
  return codes.some((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict')
    && codes.every((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict' || code === 'None');
}

const put = (Item: Item, condition?: string): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item,
    ...(condition ? { ConditionExpression: condition, ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey } } : {}),
  },
});
const remove = (Key: Item): TransactItem => ({ Delete: { TableName: tableName(), Key } });

/** Writes (or removes) the upcoming-only partner projections so they match the event. */
function upcomingWrites(workspaceId: string, event: Event, now: Date): TransactItem[] {
  const keep = isPartnerListed(event) && isUpcoming(event, now);
  return UPCOMING_ORDERS.map((order) => (keep ? put(upcomingItem(workspaceId, event, order)) : remove(eventKeys.upcoming(workspaceId, event.id, order))));
}

/** Creates an event with its sorted copies, partner projections and product items in one transaction. */
export async function insertEvent(workspaceId: string, event: Event, now: Date = new Date()): Promise<void> {
  const items: TransactItem[] = [
    put(eventItem(workspaceId, event), 'attribute_not_exists(#pk)'),
    ...EVENT_COPIES.map((copy) => put(eventCopyItem(workspaceId, event, copy))),
    ...(isPartnerListed(event) && isUpcoming(event, now) ? upcomingWrites(workspaceId, event, now) : []),
    ...event.products.map((product) => put(productItem(workspaceId, event.id, product), 'attribute_not_exists(#pk)')),
  ];
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (isContention(error)) throw new ConflictError('An event or product with this id already exists. Retry the request.');
    throw error;
  }
}

function copyKeyChanged(workspaceId: string, previous: Event, next: Event, copy: EventCopy): boolean {
  const before = eventKeys.copy(workspaceId, previous, copy);
  const after = eventKeys.copy(workspaceId, next, copy);
  return before[TABLE_KEYS.sortKey] !== after[TABLE_KEYS.sortKey];
}

/**
 * Replaces an event (and its copies and products) in one transaction, on condition that the stored
 * version is still `previous.version`. A lost race is a ConflictError; the service retries or reports it.
 */
export async function replaceEvent(workspaceId: string, previous: Event, next: Event, now: Date = new Date()): Promise<void> {
  const keptProducts = new Set(next.products.map((product) => product.id));
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: eventItem(workspaceId, next),
        ConditionExpression: 'attribute_exists(#pk) AND #version = :version',
        ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey, '#version': 'version' },
        ExpressionAttributeValues: { ':version': previous.version },
      },
    },
  ];
  for (const copy of EVENT_COPIES) {
    if (copyKeyChanged(workspaceId, previous, next, copy)) items.push(remove(eventKeys.copy(workspaceId, previous, copy)));
    items.push(put(eventCopyItem(workspaceId, next, copy)));
  }
  items.push(...upcomingWrites(workspaceId, next, now));
  for (const product of next.products) items.push(put(productItem(workspaceId, next.id, product)));
  for (const product of previous.products) {
    if (!keptProducts.has(product.id)) items.push(remove(eventKeys.product(workspaceId, product.id)));
  }
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (isContention(error)) throw new ConflictError('The event was modified concurrently. Re-read it and retry.');
    throw error;
  }
}

/** `a = :a AND b = :b` over the attributes that have a value. */
function equalityFilter(values: Record<string, string | undefined>) {
  const present = Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return {
    expression: present.map(([name]) => `#f_${name} = :f_${name}`).join(' AND '),
    names: Object.fromEntries(present.map(([name]) => [`#f_${name}`, name])),
    values: Object.fromEntries(present.map(([name, value]) => [`:f_${name}`, value])),
  };
}

export interface EventListOptions {
  page: number;
  limit: number;
  sort: 'start' | 'end' | 'createdAt' | 'name';
  direction: 'asc' | 'desc';
  status?: 'draft' | 'published';
  visibility?: 'public' | 'private';
}

/**
 * One page of the workspace's events from the sorted copy of the requested sort field: always one
 * Query reading about `(page + 1) * limit + 1` items, however many events the workspace has. The
 * `status`/`visibility` filters are filter expressions: they also pay for the events they skip.
 */
export async function listEvents(workspaceId: string, options: EventListOptions): Promise<{ items: Event[]; hasMore: boolean }> {
  const partition = eventKeys.copyPartition(workspaceId, options.sort);
  const filter = equalityFilter({ status: options.status, visibility: options.visibility });
  const { items, hasMore } = await queryPage({
    TableName: tableName(),
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey, ...filter.names },
    ExpressionAttributeValues: { ':pk': partition, ...filter.values },
    ...(filter.expression ? { FilterExpression: filter.expression } : {}),
    ScanIndexForward: options.direction === 'asc',
  }, options.page, options.limit);
  return { items: items.map(toEvent), hasMore };
}

/** Reads an event or throws NotFoundError. */
export async function getEvent(workspaceId: string, eventId: string): Promise<Event> {
  const event = await findEvent(workspaceId, eventId);
  if (!event) throw new NotFoundError('Event');
  return event;
}
