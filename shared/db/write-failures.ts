import { TransactionCanceledException, TransactionConflictException, TransactionInProgressException } from '@aws-sdk/client-dynamodb';
import { ConflictError, ServiceUnavailableError, WriteContentionError, type DomainError } from '../errors.js';

/**
 * What a failed write means, whoever sent it. Apart from the transaction builder so that the error
 * mapping (loaded by every function, the docs function included) does not load the DynamoDB client.
 */

/** Cancellation reasons that mean "DynamoDB is overloaded": retryable by the client (503). */
const CAPACITY_REASONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/**
 * The retryable meaning of a failed write, whoever sent it: capacity reasons and a transaction still
 * in progress are "DynamoDB is busy" (503), a lost race (cancellation reason `TransactionConflict`, or
 * TransactionConflictException on a single write touching an item a transaction holds) is contention
 * (503 WriteContentionError, which `readModifyWrite` retries). Nothing was written in any of these
 * cases. Undefined for anything else (a failed condition is the caller's domain error).
 */
export function retryableWriteFailure(error: unknown): ServiceUnavailableError | undefined {
  if (error instanceof TransactionConflictException) return new WriteContentionError();
  if (error instanceof TransactionInProgressException) return new ServiceUnavailableError();
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const reasons = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
  if (reasons.includes('ConditionalCheckFailed')) return undefined;
  if (reasons.some((code) => CAPACITY_REASONS.has(code))) return new ServiceUnavailableError();
  if (reasons.includes('TransactionConflict')) return new WriteContentionError();
  return undefined;
}

/**
 * A failed write that escaped the toolkit (code still sending its own transactions), as a domain
 * error: the retryable failures above, or a 409 for a failed condition nobody mapped.
 */
export function escapedWriteFailure(error: unknown): DomainError | undefined {
  const retryable = retryableWriteFailure(error);
  if (retryable) return retryable;
  if (error instanceof TransactionCanceledException && error.CancellationReasons?.some((reason) => reason.Code === 'ConditionalCheckFailed')) {
    return new ConflictError('The resource was modified concurrently. Retry the request.');
  }
  return undefined;
}
