import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';
import { instrumentDynamoClient } from './instrumentation.js';
import { DYNAMO_LIMITS, budgetDynamoClient, budgetedRetryStrategy } from './time-budget.js';

/**
 * One DynamoDB client per process, built at module scope so warm invocations reuse its connections.
 * Short timeouts, few attempts and short pauses, all within the invocation's time budget
 * (time-budget.ts): a request either gets an answer quickly or becomes a 503, never a function timeout.
 */
export const dynamoClient = new DynamoDBClient({
  endpoint: config().dynamoEndpoint,
  maxAttempts: DYNAMO_LIMITS.maxAttempts,
  retryStrategy: budgetedRetryStrategy,
  requestHandler: {
    connectionTimeout: DYNAMO_LIMITS.connectionTimeoutMs,
    requestTimeout: DYNAMO_LIMITS.requestTimeoutMs,
    // Without it the SDK only logs a warning when a request outlasts requestTimeout.
    throwOnRequestTimeout: true,
  },
});
instrumentDynamoClient(dynamoClient);
budgetDynamoClient(dynamoClient);

export const db = DynamoDBDocumentClient.from(dynamoClient, {
  marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  unmarshallOptions: { wrapNumbers: false },
});

export function tableName(): string {
  return config().tableName;
}
