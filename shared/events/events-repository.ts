import { batchGetItems } from '../db/batch-get.js';
import { getItem, versionIs } from '../db/conditional.js';
import { queryMergedPage } from '../db/merged-query.js';
import { queryPage, type Page, type PageRequest } from '../db/query.js';
import { readModifyWrite } from '../db/read-modify-write.js';
import { entityOf, notExists, type ItemKey } from '../db/table-design.js';
import { transaction, type Transaction } from '../db/transaction.js';
import { ConflictError, ValidationError } from '../errors.js';
import {
  derivedChanges, derivedEventItems, derivedKeysToCheck, entryEventId, eventListSource, itemChanges, mainEventItem,
  type EventListFilter, type ItemChanges,
} from './event-listing-model.js';
import { eventKeys, fromEventItem, fromProductItem, PRODUCT_ENTITY, type Event, type ProductRecord } from './event-model.js';

/** TransactWriteItems takes at most 100 items. */
const MAX_TRANSACTION_ITEMS = 100;

/** Options of a write: the clock (for the partner listing's upcoming projections) and items to commit with it. */
export interface EventWriteOptions {
  now?: Date;
  /** Items another domain commits in the same transaction (e.g. an outbox event when an event is published). */
  also?: Transaction;
}

function withChanges(tx: Transaction, changes: ItemChanges, productCondition: boolean): Transaction {
  for (const key of changes.deletes) tx.delete(key);
  for (const count of changes.counts) tx.update(count);
  for (const item of changes.puts) {
    const isNewProduct = productCondition && entityOf(item) === PRODUCT_ENTITY;
    tx.put(item, isNewProduct ? { ...notExists(), onFailed: () => new ConflictError('A product with this id already exists. Retry the request.') } : undefined);
  }
  return tx;
}

async function commitWithin(tx: Transaction, also: Transaction | undefined): Promise<void> {
  if (also) tx.include(also);
  if (tx.size > MAX_TRANSACTION_ITEMS) {
    // A create always fits (README); only an update replacing most products and metaData at once can exceed it.
    throw new ValidationError({ path: '', message: `This change rewrites ${tx.size} stored items, more than the ${MAX_TRANSACTION_ITEMS} one atomic write takes. Change products and metaData in separate requests.` });
  }
  await tx.commit();
}

/** Creates an event with its sorted copies, filter entries, products and partner listing items in one transaction. */
export async function insertEvent(workspaceId: string, event: Event, options: EventWriteOptions = {}): Promise<void> {
  const tx = transaction().put(mainEventItem(workspaceId, event), { ...notExists(), onFailed: () => new ConflictError('An event with this id already exists. Retry the request.') });
  withChanges(tx, derivedChanges(workspaceId, undefined, event, options.now ?? new Date()), true);
  await commitWithin(tx, options.also);
}

/**
 * Replaces an event and moves its derived items in one transaction, on condition that the stored
 * version is still `previous.version` (a StaleVersionError otherwise, which `readModifyWrite` handles).
 * Only the derived items that change are written.
 */
export async function saveEvent(workspaceId: string, previous: Event, next: Event, options: EventWriteOptions = {}): Promise<void> {
  const tx = transaction().put(mainEventItem(workspaceId, next), versionIs(previous.version, 'event'));
  withChanges(tx, derivedChanges(workspaceId, previous, next, options.now ?? new Date()), false);
  await commitWithin(tx, options.also);
}

/**
 * One event of the workspace, or undefined (also for another workspace's id). Eventually consistent
 * unless `consistent` (the read of a read-modify-write): the version on the answer says what was seen.
 */
export async function findEvent(workspaceId: string, eventId: string, options: { consistent?: boolean } = {}): Promise<Event | undefined> {
  const item = await getItem(eventKeys.event(workspaceId, eventId), options);
  return item ? fromEventItem(item) : undefined;
}

/**
 * Events of the workspace by id, in ONE BatchGet (per 100 ids). Absent ids and other workspaces'
 * events are simply missing from the map.
 */
export async function getEventsByIds(workspaceId: string, ids: readonly string[]): Promise<Map<string, Event>> {
  const items = await batchGetItems([...new Set(ids)].map((id) => eventKeys.event(workspaceId, id)));
  return new Map(items.map((item) => { const event = fromEventItem(item); return [event.id, event]; }));
}

/** Products of the workspace's events by product id, in ONE BatchGet (per 100 ids). */
export async function getProductsByIds(workspaceId: string, productIds: readonly string[]): Promise<Map<string, ProductRecord>> {
  const items = await batchGetItems([...new Set(productIds)].map((id) => eventKeys.product(workspaceId, id)));
  return new Map(items.map((item) => { const product = fromProductItem(item); return [product.productId, product]; }));
}

/**
 * One page of `GET /v1/events` (README "Events and the partner listing: access patterns"):
 * - unfiltered: one Query of the sort field's copies (full events);
 * - `status` and `visibility`: one Query of the filter entries of exactly that combination, then one
 *   BatchGet of the page;
 * - one of them: the two partitions of that value merged (two Queries), then one BatchGet.
 * A cursor page reads `limit + 1` entries per partition whatever the depth; the workspace's other
 * events are never read.
 */
export async function listEvents(workspaceId: string, filter: EventListFilter, request: PageRequest): Promise<Page<Event>> {
  const scope = { owner: workspaceId, list: 'events', shape: { ...filter } };
  const ascending = filter.direction === 'asc';
  const source = eventListSource(workspaceId, filter);
  if ('copies' in source) {
    const page = await queryPage({ partition: source.copies, ascending }, request, scope);
    return { ...page, items: page.items.map(fromEventItem) };
  }
  const page = source.entries.length === 1
    ? await queryPage({ partition: source.entries[0] as string, ascending }, request, scope)
    : await queryMergedPage(source.entries.map((partition) => ({ partition, ascending })), request, scope);
  const ids = page.items.map(entryEventId);
  const events = await getEventsByIds(workspaceId, ids);
  // An event that changed status or visibility between the two reads no longer matches: leave it out.
  const items = ids.flatMap((id) => events.get(id) ?? [])
    .filter((event) => (filter.status === undefined || event.status === filter.status) && (filter.visibility === undefined || event.visibility === filter.visibility));
  return { ...page, items };
}

/**
 * Brings the stored derived items of one event in line with what its main item says they must be at
 * `now`: reads the main item (strongly) and the derived items (one BatchGet), then writes only the
 * differences, conditioned on the version read. Returns how many items it wrote (0 when nothing was
 * missing or stale, so running it again changes nothing). `staleKeys` are items that may exist and
 * must go unless wanted (the end-schedule entry being swept). Used by the backfill and the end sweeper.
 */
export async function syncDerivedItems(workspaceId: string, eventId: string, options: { now?: Date; staleKeys?: readonly ItemKey[] } = {}): Promise<number> {
  const now = options.now ?? new Date();
  return readModifyWrite({
    resource: 'event',
    read: async () => {
      const event = await findEvent(workspaceId, eventId, { consistent: true });
      return { version: event?.version ?? 0, event };
    },
    write: async ({ event }) => {
      if (!event) {
        // Events are never deleted; a schedule entry without its event is removed rather than read forever.
        const stale = options.staleKeys ?? [];
        if (stale.length > 0) await stale.reduce((tx, key) => tx.delete(key), transaction()).commit();
        return stale.length;
      }
      const candidates = [...derivedKeysToCheck(workspaceId, event, now), ...(options.staleKeys ?? [])];
      const existing = await batchGetItems(uniqueKeys(candidates));
      const changes = itemChanges(derivedEventItems(workspaceId, event, now), existing);
      const written = changes.puts.length + changes.deletes.length + changes.counts.length;
      if (written === 0) return 0;
      const tx = transaction().check(eventKeys.event(workspaceId, event.id), versionIs(event.version, 'event'));
      await commitWithin(withChanges(tx, changes, false), undefined);
      return written;
    },
  });
}

function uniqueKeys(keys: readonly ItemKey[]): ItemKey[] {
  return [...new Map(keys.map((key) => [JSON.stringify(key), key])).values()];
}
