import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';
import { tracedClient } from '../observability/tracing.js';
import { instrumentDynamoClient } from './instrumentation.js';
import { budgetDynamoClient, budgetedClientConfig } from './time-budget.js';

/**
 * One DynamoDB client per process, built at module scope so warm invocations reuse its connections.
 * Short timeouts, few attempts and short pauses, all within the invocation's time budget
 * (time-budget.ts): a request either gets an answer quickly or becomes a 503, never a function timeout.
 */
export const dynamoClient = tracedClient(new DynamoDBClient(budgetedClientConfig(config().dynamoEndpoint, config().dynamoRequestTimeoutMs)));
instrumentDynamoClient(dynamoClient);
budgetDynamoClient(dynamoClient, config().dynamoRequestTimeoutMs);

export const db = DynamoDBDocumentClient.from(dynamoClient, {
  marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  unmarshallOptions: { wrapNumbers: false },
});

export function tableName(): string {
  return config().tableName;
}
