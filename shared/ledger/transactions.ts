import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { cancellationCodes } from '../db/cancellation.js';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A cancelled TransactWrite: one reason code per item, in item order (`None` for items that passed). */
export class TransactionRejectedError extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(`Transaction cancelled: ${reasons.join(', ')}`);
    this.name = 'TransactionRejectedError';
  }

  /** Whether the item at `index` failed its condition. */
  failed(index: number): boolean {
    return this.reasons[index] === 'ConditionalCheckFailed';
  }

  /** Another transaction touched one of the items at the same time: the whole attempt may be retried. */
  get conflicted(): boolean {
    return this.reasons.includes('TransactionConflict');
  }
}

/** Sends one all-or-nothing TransactWrite; a cancellation becomes a TransactionRejectedError. */
export async function transact(items: TransactItem[]): Promise<void> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      throw new TransactionRejectedError(cancellationCodes(error));
    }
    throw error;
  }
}

/** Transaction conflicts are transient by nature: the same attempt, re-read, may succeed. */
export function isTransactionConflict(error: unknown): boolean {
  return error instanceof TransactionConflictException || (error instanceof TransactionRejectedError && error.conflicted);
}

export { retrying } from '../db/retry.js';
