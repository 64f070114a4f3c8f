import type { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/**
 * Reading why DynamoDB cancelled a TransactWriteItems: one reason per item, in request order.
 * `TransactionConflict` means another request touched an item at the same moment and nothing was
 * written (retry); `ConditionalCheckFailed` names the items whose condition failed.
 */
export function cancellationCodes(error: TransactionCanceledException): string[] {
  return (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
}

/** True when the transaction lost a race with another one (nothing was written: retry). */
export function isTransactionContention(error: TransactionCanceledException): boolean {
  return cancellationCodes(error).includes('TransactionConflict');
}

/** Indices of the transaction items whose condition failed. */
export function failedConditionIndices(error: TransactionCanceledException): number[] {
  return cancellationCodes(error).flatMap((code, index) => (code === 'ConditionalCheckFailed' ? [index] : []));
}
