import { getItem, versionIs } from '../db/conditional.js';
import { queryAll } from '../db/query.js';
import { keyOfItem, notExists, type ItemKey } from '../db/table-design.js';
import { transaction, type Transaction } from '../db/transaction.js';
import { ConflictError, ValidationError } from '../errors.js';
import { checkoutListKeys, listItemsOf } from './checkout-list-model.js';
import {
  LIST_NAMES_ATTRIBUTE, checkoutKeys, fromCheckoutItem, toCheckoutItem, toDeletedCheckoutItem,
  type CheckoutRecord, type ListNames, type StoredCheckout,
} from './checkout-model.js';

/*
 * Checkout writes (the checkout with its list projections, one transaction each) and single reads.
 * Loaded by the events and forms functions too (renames re-key projections), so it keeps to what
 * writes need; the list's reads live in checkout-list-repository.ts.
 */

/**
 * The event or form a checkout's list projections were keyed with was renamed after its name was read:
 * read the names again and redo the write (`readModifyWrite` retries on it).
 */
export class ListNameChangedError extends Error {
  constructor() {
    super('An event or form was renamed while the checkout was written.');
    this.name = 'ListNameChangedError';
  }
}

/** DynamoDB refuses items above 400 KB; the request limits allow bodies that reach it (many dependents and fees). */
async function committing(tx: Transaction): Promise<void> {
  await tx.commit({ onTooLarge: () => new ValidationError({ path: 'products', message: 'The checkout is too large to store: use fewer products, dependents or custom fees.' }) });
}

/**
 * A condition that an event or form still has the name the projections are keyed with, checked in
 * the write's transaction: a rename that lands in between re-keys the checkouts it can already see,
 * and this check makes sure no write keyed with the old name lands after it. Built by the caller
 * from the event's or form's key (this module does not load their models).
 */
export interface NameCheck {
  key: ItemKey;
  name: string;
}

function withNameChecks(tx: Transaction, checks: readonly NameCheck[]): Transaction {
  for (const { key, name } of checks) {
    tx.check(key, { expression: '#name = :name', names: { '#name': 'name' }, values: { ':name': name }, onFailed: () => new ListNameChangedError() });
  }
  return tx;
}

const keyId = (key: ItemKey) => JSON.stringify(key);

/** Puts of the projections a checkout has now, deletes of those it had before and no longer has. */
function withListChanges(tx: Transaction, workspaceId: string, before: StoredCheckout | undefined, after: CheckoutRecord | undefined, names: ListNames): Transaction {
  const puts = after ? listItemsOf(workspaceId, after, names) : [];
  const kept = new Set(puts.map((item) => keyId(keyOfItem(item))));
  if (before) {
    for (const item of listItemsOf(workspaceId, before.record, before.listNames)) {
      const key = keyOfItem(item);
      if (!kept.has(keyId(key))) tx.delete(key);
    }
  }
  for (const item of puts) tx.put(item);
  return tx;
}

/** Creates a checkout with its list projections in one transaction. */
export async function insertCheckout(workspaceId: string, record: CheckoutRecord, names: ListNames, checks: readonly NameCheck[] = []): Promise<void> {
  const tx = transaction().put(toCheckoutItem(workspaceId, record, names), { ...notExists(), onFailed: () => new ConflictError('A checkout with this id already exists.') });
  await committing(withNameChecks(withListChanges(tx, workspaceId, undefined, record, names), checks));
}

/**
 * A live checkout of the workspace, or undefined. `consistent` for the read of a read-modify-write
 * (the write is decided on it); a plain GET reads eventually consistent at half the cost.
 */
export async function findCheckout(workspaceId: string, checkoutId: string, options: { consistent?: boolean } = {}): Promise<StoredCheckout | undefined> {
  const item = await getItem(checkoutKeys.checkout(workspaceId, checkoutId), options);
  return item ? fromCheckoutItem(item) : undefined;
}

/**
 * Replaces a checkout only if it still has the version that was read, and moves its list
 * projections with it (one transaction): every projection is rewritten (they carry `updatedAt`),
 * those whose key changed are removed.
 */
export async function replaceCheckout(workspaceId: string, current: StoredCheckout, next: CheckoutRecord, names: ListNames, checks: readonly NameCheck[] = []): Promise<void> {
  const tx = transaction().put(toCheckoutItem(workspaceId, next, names), versionIs(current.version, 'checkout'));
  await committing(withNameChecks(withListChanges(tx, workspaceId, current, next, names), checks));
}

/**
 * Soft delete in ONE transaction: the live item goes (only at the version read) with its projections,
 * and the record is kept under the deleted prefix with `deletedAt`.
 */
export async function softDeleteCheckout(workspaceId: string, current: StoredCheckout, deletedAt: string): Promise<void> {
  const tx = transaction()
    .delete(checkoutKeys.checkout(workspaceId, current.record.id), versionIs(current.version, 'checkout'))
    .put(toDeletedCheckoutItem(workspaceId, current.record, deletedAt));
  await withListChanges(tx, workspaceId, current, undefined, {}).commit();
}

/**
 * Re-keys a checkout's list projections with fresh event/form names (after a rename, or in the
 * backfill), at the version read: the checkout's `listNames` are updated in the same transaction, the
 * projections keyed with the old names removed and every projection put again. `onVersionMoved` is
 * the error when the checkout changed since it was read. Returns the number of projections written.
 */
export async function rekeyCheckout(workspaceId: string, current: StoredCheckout, names: ListNames, checks: readonly NameCheck[], onVersionMoved: () => Error): Promise<number> {
  const tx = transaction().update({
    key: checkoutKeys.checkout(workspaceId, current.record.id),
    update: 'SET #listNames = :names',
    names: { '#listNames': LIST_NAMES_ATTRIBUTE },
    values: { ':names': names },
    condition: { ...versionIs(current.version, 'checkout'), onFailed: onVersionMoved },
  });
  withListChanges(tx, workspaceId, current, current.record, names);
  await withNameChecks(tx, checks).commit();
  return listItemsOf(workspaceId, current.record, names).length;
}

/**
 * The ids of the live checkouts that reference an event or form whose list projections are keyed with
 * another name than `name` (strongly consistent: a rename re-keys exactly these). Two key-range Queries
 * of the event's `event`-sort partition or the form's by-form partition: when nothing is stale they
 * read nothing.
 */
export async function checkoutIdsKeyedWithOtherName(workspaceId: string, reference: { field: 'event' | 'form'; id: string }, name: string): Promise<string[]> {
  const partition = reference.field === 'event'
    ? checkoutListKeys.partition(workspaceId, 'event', 'value', { kind: 'event', eventId: reference.id })
    : checkoutListKeys.byFormPartition(workspaceId, reference.id);
  const found = await Promise.all(checkoutListKeys.otherNameRanges(name).map((range) => queryAll({ partition, range, consistent: true })));
  return [...new Set(found.flat().map((item) => String(item.id)))];
}
