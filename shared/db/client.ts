import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';
import { instrumentDynamoClient } from './instrumentation.js';

/**
 * One DynamoDB client per process, built at module scope so warm invocations reuse its connections.
 * Short timeouts and three attempts: a request either gets an answer quickly or becomes a 503.
 */
export const dynamoClient = new DynamoDBClient({
  endpoint: config().dynamoEndpoint,
  maxAttempts: 3,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 },
});
instrumentDynamoClient(dynamoClient);

export const db = DynamoDBDocumentClient.from(dynamoClient, {
  marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  unmarshallOptions: { wrapNumbers: false },
});

export function tableName(): string {
  return config().tableName;
}
