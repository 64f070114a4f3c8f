import { InternalServerError, ProvisionedThroughputExceededException, RequestLimitExceeded } from '@aws-sdk/client-dynamodb';
import { isThrottlingError, isTransientError } from '@smithy/service-error-classification';

/**
 * A DynamoDB call failed because DynamoDB is overloaded or unreachable (throttling, capacity, a
 * timeout, a network or server error), after the SDK's own attempts: retryable by the client (503).
 */
export function isDatastoreUnavailable(error: unknown): boolean {
  if (error instanceof ProvisionedThroughputExceededException || error instanceof RequestLimitExceeded || error instanceof InternalServerError) {
    return true;
  }
  if (typeof error === 'object' && error !== null && ('$metadata' in error || 'code' in error)) {
    const sdkError = error as Parameters<typeof isThrottlingError>[0];
    return isThrottlingError(sdkError) || isTransientError(sdkError);
  }
  return false;
}
