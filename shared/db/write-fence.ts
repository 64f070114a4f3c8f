import { AsyncLocalStorage } from 'node:async_hooks';
import { RequestAlreadyAppliedError } from '../errors.js';
import type { Condition } from './transaction.js';

/**
 * "This request was applied": a marker item committed in the same transaction as the first change a
 * request makes, so that the change and the marker exist together or not at all. A request that runs
 * again (an `Idempotency-Key` replay whose idempotency record was lost, e.g. the record was never
 * completed and its in-progress lock lapsed) finds the marker and its change is refused as a whole
 * with RequestAlreadyAppliedError: the work can never be applied twice.
 *
 * The toolkit's writes (`transaction().commit()`, `putItem`, `updateItem`, `deleteItem`) add the
 * marker by themselves inside `withWriteFence`; domain code never sees it.
 */
export interface WriteFence {
  /** Table of the marker (the idempotency table). */
  readonly tableName: string;
  /** The marker item, key included. */
  readonly item: Record<string, unknown>;
  /** The key attribute of the marker's table. */
  readonly keyAttribute: string;
  /** The TTL attribute (epoch seconds): an expired marker no longer counts, even before DynamoDB deletes it. */
  readonly expiryAttribute: string;
  /** Set once a write carrying the marker committed: later writes of the same request go without it. */
  committed: boolean;
}

const storage = new AsyncLocalStorage<WriteFence>();

/** Runs `fn` with `fence`: its first committed write carries the marker. */
export function withWriteFence<T>(fence: WriteFence, fn: () => Promise<T>): Promise<T> {
  return storage.run(fence, fn);
}

/** The fence of the running request, while its marker is still to be written. */
export function pendingWriteFence(): WriteFence | undefined {
  const fence = storage.getStore();
  return fence && !fence.committed ? fence : undefined;
}

/** The condition of the marker's Put: absent, or expired (TTL deletion lags). Its failure means "already applied". */
export function fenceCondition(fence: WriteFence): Condition {
  return {
    expression: 'attribute_not_exists(#fenceKey) OR #fenceExpiry < :fenceNow',
    names: { '#fenceKey': fence.keyAttribute, '#fenceExpiry': fence.expiryAttribute },
    values: { ':fenceNow': Math.floor(Date.now() / 1000) },
    onFailed: () => new RequestAlreadyAppliedError(),
    // Wins over every other failed condition: a request applied before fails its other conditions too.
    priority: -1,
  };
}
