import { randomBytes } from 'node:crypto';
import { startDynamoDbLocal } from '../../../bin/local/dynamodb-local.js';
import { ensureTables } from '../../../bin/local/bootstrap.js';
import { freePort } from '../../../bin/local/ports.js';


/**
 * One DynamoDB Local per test run, on its own free port, always stopped. Test files isolate their data
 * by creating their own workspaces, exactly as tenants are isolated in production.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const port = await freePort();
  const dynamo = await startDynamoDbLocal({ port });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = 'boxoffice-test';
  process.env.IDEMPOTENCY_TABLE_NAME = 'boxoffice-test-idempotency';
  process.env.EXPOSE_DB_STATS = 'true';
  process.env.AWS_REGION = 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID = 'local';
  process.env.AWS_SECRET_ACCESS_KEY = 'local';
  // Every worker encrypts and decrypts webhook secrets with the same local key, and may register 127.0.0.1 receivers.
  process.env.WEBHOOK_SECRETS_LOCAL_KEY = randomBytes(32).toString('base64');
  process.env.WEBHOOK_URL_POLICY = 'local';
  await ensureTables(dynamo.endpoint, process.env.TABLE_NAME, process.env.IDEMPOTENCY_TABLE_NAME);
  return async () => dynamo.stop();
}
