import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { dynamoClient } from './client.js';
import { jitteredBackoff } from './retry.js';
import { IDEMPOTENCY_TABLE_KEYS } from './table-design.js';

/** Attempts at completing or deleting a record once the work has run (the SDK's own retries come on top). */
const RECORD_WRITE_ATTEMPTS = 4;

async function retried(write: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= RECORD_WRITE_ATTEMPTS) throw error;
      await jitteredBackoff(attempt + 2);
    }
  }
}

/**
 * Powertools' DynamoDB persistence for `Idempotency-Key` records, except that completing a record
 * (saving the response) and deleting one (after a failure) are retried: both happen after the work
 * ran, when giving up costs the most (a committed change answered as an error, or a key blocked as
 * "in progress" until its lock lapses). Reading and creating a record are not: nothing ran yet, a 503
 * is harmless.
 */
export class RetryingPersistenceLayer extends DynamoDBPersistenceLayer {
  protected override async _updateRecord(record: IdempotencyRecord): Promise<void> {
    await retried(() => super._updateRecord(record));
  }

  protected override async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    await retried(() => super._deleteRecord(record));
  }
}

/** The persistence layer on the idempotency table (own table: see README "Idempotency records"). */
export function idempotencyPersistence(tableName: string): DynamoDBPersistenceLayer {
  return new RetryingPersistenceLayer({
    tableName,
    keyAttr: IDEMPOTENCY_TABLE_KEYS.partitionKey,
    expiryAttr: IDEMPOTENCY_TABLE_KEYS.ttl,
    awsSdkV3Client: dynamoClient,
  });
}
