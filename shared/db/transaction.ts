import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConflictError, ServiceUnavailableError, ValidationError, WriteContentionError } from '../errors.js';
import { db, tableName } from './client.js';
import { isDatastoreUnavailable } from './failures.js';
import { jitteredBackoff } from './retry.js';
import type { ItemKey } from './table-design.js';
import { retryableWriteFailure } from './write-failures.js';
import { fenceCondition, pendingWriteFence } from './write-fence.js';

/** Re-exported: the toolkit's users read every write failure from the transaction builder. */
export { escapedWriteFailure, retryableWriteFailure } from './write-failures.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Item = Record<string, unknown>;

/** A condition on one item of the transaction, with the domain error its failure means. */
export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
  /**
   * The error to throw when this condition fails. When several items fail, the one with the lowest
   * `priority` (default: its position) wins, so the most meaningful error can be chosen.
   */
  onFailed?: () => Error;
  priority?: number;
}

export interface UpdateSpec {
  key: ItemKey;
  /** `SET a = :a ADD b :one` */
  update: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
  condition?: Condition;
}

/**
 * An item of the write is above DynamoDB's 400 KB item limit: nothing was written. Well-formed input
 * that breaks a rule, so a 422 `validation_failed` wherever it surfaces (never a 500, and without
 * naming the datastore); domains whose items grow with client data (a form with its elements, a form
 * response, an invoice) turn it into their own 422 naming the field that grew it (`onTooLarge`).
 */
export class ItemTooLargeError extends ValidationError {
  constructor() {
    super({ path: '', message: 'The resource is too large to store: shorten its text fields.' });
  }
}

const ITEM_SIZE = /item size/i;

/** DynamoDB's refusal of an oversized Put or Update, sent alone or as a transaction (refused before it starts). */
export function isItemSizeRefusal(error: unknown): boolean {
  return error instanceof Error && error.name === 'ValidationException' && ITEM_SIZE.test(error.message);
}

/** Sends of a `resendOnTransientFailure` transaction that may fail transiently before its error is thrown. */
const TRANSIENT_ATTEMPTS = 4;

function isTransient(error: unknown, mapped: unknown): boolean {
  return (mapped instanceof ServiceUnavailableError && !(mapped instanceof WriteContentionError)) || isDatastoreUnavailable(error);
}

/** How often a transaction that lost a race (nothing written) is sent again before answering 503. */
const CONTENTION_ATTEMPTS = 4;

/** The condition, names and values of one write, merged into the request fields DynamoDB takes. */
export function expressionParts(condition: Condition | undefined, names?: Record<string, string>, values?: Record<string, unknown>) {
  const allNames = { ...names, ...condition?.names };
  const allValues = { ...values, ...condition?.values };
  return {
    ...(condition ? { ConditionExpression: condition.expression } : {}),
    ...(Object.keys(allNames).length > 0 ? { ExpressionAttributeNames: allNames } : {}),
    ...(Object.keys(allValues).length > 0 ? { ExpressionAttributeValues: allValues } : {}),
  };
}

/**
 * One all-or-nothing TransactWriteItems, built item by item. Each item may carry a condition and the
 * domain error its failure means; `commit` turns the cancellation reasons (indexed like the items)
 * into that error, sends again a transaction that only lost a race (nothing was written), and turns
 * throttling into a 503. It is the one place that reads cancellation reasons.
 *
 * ```ts
 * await transaction()
 *   .put(invoiceItem, { ...notExists(), onFailed: () => new ConflictError('...') })
 *   .update({ key, update: 'ADD lastNumber :one', values: { ':one': 1 } })
 *   .commit();
 * ```
 */
export class Transaction {
  private readonly items: TransactItem[] = [];
  private readonly conditions: (Condition | undefined)[] = [];
  private carriesFence = true;

  /** Number of items so far (DynamoDB takes at most 100). */
  get size(): number {
    return this.items.length;
  }

  /** Puts an item (of the main table unless `table` names another one, e.g. the idempotency table). */
  put(item: Item, condition?: Condition, table = tableName()): this {
    return this.push({ Put: { TableName: table, Item: item, ...expressionParts(condition) } }, condition);
  }

  update(spec: UpdateSpec): this {
    return this.push({
      Update: { TableName: tableName(), Key: spec.key, UpdateExpression: spec.update, ...expressionParts(spec.condition, spec.names, spec.values) },
    }, spec.condition);
  }

  delete(key: ItemKey, condition?: Condition): this {
    return this.push({ Delete: { TableName: tableName(), Key: key, ...expressionParts(condition) } }, condition);
  }

  /** A condition on an item that the transaction does not change. */
  check(key: ItemKey, condition: Condition): this {
    return this.push({ ConditionCheck: { TableName: tableName(), Key: key, ...expressionParts(condition) } as NonNullable<TransactItem['ConditionCheck']> }, condition);
  }

  /** Adds the items of another builder (e.g. ledger bookings or outbox events built elsewhere). */
  include(other: Transaction): this {
    other.items.forEach((item, index) => this.push(item, other.conditions[index]));
    return this;
  }

  /**
   * Marks the transaction as an intermediate step of a change that a rerun resumes by itself (a
   * refund's reservation, found again by its key): the request's "applied" marker (write-fence.ts)
   * then goes with the write that finishes the change, not with this one.
   */
  resumableStep(): this {
    this.carriesFence = false;
    return this;
  }

  /** The raw items, for tests and for callers that need to inspect what will be written. */
  toItems(): readonly TransactItem[] {
    return this.items;
  }

  /**
   * Sends the transaction. A failed condition throws its `onFailed` error (or a 409 when it has none);
   * a lost race is sent again with jittered backoff and becomes a 503 WriteContentionError when it
   * keeps losing; throttling becomes a 503 ServiceUnavailableError. Safe to resend: nothing was written.
   *
   * `resendOnTransientFailure`: also resend after throttling, timeouts, network and server errors, with
   * the same ClientRequestToken (DynamoDB applies a token once, so a send that did commit before its
   * answer was lost is not applied again). For writes that record an effect already made outside
   * DynamoDB (a processor refund): giving up there leaves the books behind the money.
   *
   * `onTooLarge`: the error to throw when an item would pass DynamoDB's 400 KB limit (by default
   * ItemTooLargeError), e.g. a 422 naming the field that grew it.
   */
  async commit(options: { resendOnTransientFailure?: boolean; onTooLarge?: () => Error } = {}): Promise<void> {
    if (this.items.length === 0) return;
    // Inside an idempotent request, its first committed write carries the "applied" marker (write-fence.ts).
    const fence = this.carriesFence ? pendingWriteFence() : undefined;
    const sent = fence ? new Transaction().include(this).put(fence.item, fenceCondition(fence), fence.tableName) : this;
    let token = randomUUID();
    let transientFailures = 0;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await db.send(new TransactWriteCommand({ TransactItems: sent.items, ClientRequestToken: token }));
        if (fence) fence.committed = true;
        return;
      } catch (error) {
        const mapped = sent.mapFailure(error);
        if (mapped instanceof WriteContentionError && attempt < CONTENTION_ATTEMPTS) {
          // Cancelled: nothing was written, the next send is a new request.
          token = randomUUID();
        } else if (options.resendOnTransientFailure && isTransient(error, mapped) && (transientFailures += 1) < TRANSIENT_ATTEMPTS) {
          // Same token: if the failed send did commit, DynamoDB answers success without applying it twice.
        } else {
          throw mapped instanceof ItemTooLargeError && options.onTooLarge ? options.onTooLarge() : mapped;
        }
        await jitteredBackoff(attempt);
      }
    }
  }

  private push(item: TransactItem, condition: Condition | undefined): this {
    this.items.push(item);
    this.conditions.push(condition);
    return this;
  }

  private mapFailure(error: unknown): unknown {
    // DynamoDB refuses an oversized Put before the transaction starts (ValidationException), and an
    // update that would grow an item past the limit as a cancellation reason.
    if (isItemSizeRefusal(error)) return new ItemTooLargeError();
    if (!(error instanceof TransactionCanceledException)) return retryableWriteFailure(error) ?? error;
    if ((error.CancellationReasons ?? []).some((reason) => reason.Code === 'ValidationError' && ITEM_SIZE.test(reason.Message ?? ''))) return new ItemTooLargeError();
    const reasons = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
    const failed = reasons.flatMap((code, index) => (code === 'ConditionalCheckFailed' ? [index] : []));
    if (failed.length > 0) {
      const [first] = failed
        .map((index) => ({ index, condition: this.conditions[index] }))
        .sort((a, b) => (a.condition?.priority ?? a.index) - (b.condition?.priority ?? b.index));
      return first?.condition?.onFailed?.() ?? new ConflictError('The data changed concurrently. Retry the request.');
    }
    return retryableWriteFailure(error) ?? error;
  }
}

/** Starts a transaction builder. */
export function transaction(): Transaction {
  return new Transaction();
}
