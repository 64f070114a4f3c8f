import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, StaleVersionError } from '../errors.js';
import { db, tableName } from './client.js';
import { ItemTooLargeError, expressionParts, isItemSizeRefusal, retryableWriteFailure, transaction, type Condition, type UpdateSpec } from './transaction.js';
import { pendingWriteFence } from './write-fence.js';
import { isDatastoreUnavailable } from './failures.js';
import { retrying } from './retry.js';

/** Attempts at reading back an item just updated inside a transaction. */
const READ_BACK_ATTEMPTS = 4;
import type { ItemKey } from './table-design.js';

type Item = Record<string, unknown>;

/**
 * Single-item reads and conditional writes. A failed condition throws the condition's `onFailed`
 * error (a 409 `conflict` when it names none), so repositories never catch SDK exceptions themselves;
 * a write refused because a transaction holds the item is a WriteContentionError (nothing written:
 * `readModifyWrite` retries it, elsewhere it is a 503); an item above 400 KB is an ItemTooLargeError (422).
 */

async function conditionally<T>(condition: Condition | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) {
      throw condition?.onFailed?.() ?? new ConflictError('The data changed concurrently. Retry the request.');
    }
    // Like a transaction's: an item above 400 KB is a 422, not an unexpected failure.
    if (isItemSizeRefusal(error)) throw new ItemTooLargeError();
    throw retryableWriteFailure(error) ?? error;
  }
}

/**
 * One item by key. Eventually consistent by default (half the cost); pass `consistent` only where a
 * decision is taken on what is read (read-modify-write, counters), and say why at the call site.
 * `abortSignal` ends the call early (the health check's own deadline).
 */
export async function getItem(key: ItemKey, options: { consistent?: boolean; attributes?: readonly string[]; abortSignal?: AbortSignal } = {}): Promise<Item | undefined> {
  const projection = options.attributes
    ? {
      ProjectionExpression: options.attributes.map((_name, index) => `#a${index}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(options.attributes.map((name, index) => [`#a${index}`, name])),
    }
    : {};
  const command = new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: options.consistent ?? false, ...projection });
  const { Item } = await db.send(command, options.abortSignal ? { abortSignal: options.abortSignal } : {});
  return Item;
}

/*
 * Inside an idempotent request whose "applied" marker is not written yet (write-fence.ts), a single
 * write goes as a transaction with the marker, so the write and the marker commit together.
 */

export async function putItem(item: Item, condition?: Condition): Promise<void> {
  if (pendingWriteFence()) return transaction().put(item, condition).commit();
  await conditionally(condition, () => db.send(new PutCommand({ TableName: tableName(), Item: item, ...expressionParts(condition) })));
}

/** An UpdateItem; returns the item as it is after the update. */
export async function updateItem(spec: UpdateSpec): Promise<Item | undefined> {
  if (pendingWriteFence()) {
    // A transaction returns no attributes: read the item back (strongly, it was just written). The
    // change is committed: the read is retried rather than failing a request whose work is done.
    await transaction().update(spec).commit();
    return retrying(() => getItem(spec.key, { consistent: true }), isDatastoreUnavailable, READ_BACK_ATTEMPTS);
  }
  const { Attributes } = await conditionally(spec.condition, () => db.send(new UpdateCommand({
    TableName: tableName(), Key: spec.key, UpdateExpression: spec.update, ReturnValues: 'ALL_NEW', ...expressionParts(spec.condition, spec.names, spec.values),
  })));
  return Attributes;
}

export async function deleteItem(key: ItemKey, condition?: Condition): Promise<void> {
  if (pendingWriteFence()) return transaction().delete(key, condition).commit();
  await conditionally(condition, () => db.send(new DeleteCommand({ TableName: tableName(), Key: key, ...expressionParts(condition) })));
}

/**
 * The optimistic-concurrency condition: the stored `version` is still the one the change was based
 * on. Its failure is a StaleVersionError, which `readModifyWrite` understands.
 */
export function versionIs(expected: number, resource: string): Condition {
  return {
    expression: '#version = :expectedVersion',
    names: { '#version': 'version' },
    values: { ':expectedVersion': expected },
    onFailed: () => new StaleVersionError(resource),
  };
}
