import {
  CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException, UpdateTableCommand, UpdateTimeToLiveCommand,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { IDEMPOTENCY_TABLE_KEYS, TABLE_KEYS, idempotencyTableDefinition, mainTableDefinition } from '../../shared/db/table-design.js';

async function ensureTable(client: DynamoDBClient, definition: CreateTableCommandInput, ttlAttribute: string): Promise<boolean> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: definition.TableName }));
    // A table kept with --data-dir from before the stream existed gets it now (webhook delivery reads it).
    if (definition.StreamSpecification && !Table?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: definition.TableName, StreamSpecification: definition.StreamSpecification }));
    }
    // ...and the indexes added to the design since (one per update, as DynamoDB takes them); the items
    // it already holds get their index attributes from `npm run admin -- backfill`.
    const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    for (const index of definition.GlobalSecondaryIndexes ?? []) {
      if (present.has(index.IndexName)) continue;
      await client.send(new UpdateTableCommand({
        TableName: definition.TableName,
        AttributeDefinitions: definition.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }));
    }
    return false;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(new CreateTableCommand(definition));
  await client.send(new UpdateTimeToLiveCommand({
    TableName: definition.TableName,
    TimeToLiveSpecification: { Enabled: true, AttributeName: ttlAttribute },
  }));
  return true;
}

/**
 * Creates the single table and the idempotency table, with exactly the definitions the CDK stack
 * deploys (both come from shared/db/table-design.ts). Returns true when the main table was new.
 */
export async function ensureTables(endpoint: string | undefined, tableName: string, idempotencyTableName: string): Promise<boolean> {
  const client = new DynamoDBClient({ endpoint });
  try {
    const created = await ensureTable(client, mainTableDefinition(tableName), TABLE_KEYS.ttl);
    await ensureTable(client, idempotencyTableDefinition(idempotencyTableName), IDEMPOTENCY_TABLE_KEYS.ttl);
    return created;
  } finally {
    client.destroy();
  }
}
