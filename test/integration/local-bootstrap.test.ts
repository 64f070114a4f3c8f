import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTables } from '../../bin/local/bootstrap.js';
import { mainTableDefinition } from '../../shared/db/table-design.js';

const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
const name = `bootstrap-stream-${Date.now()}`;
afterAll(async () => {
  await Promise.all([name, `${name}-idempotency`].map((TableName) => client.send(new DeleteTableCommand({ TableName })).catch(() => undefined)));
  client.destroy();
});

describe('local table bootstrap', () => {
  it('enables the stream (NEW_IMAGE) on a table kept from before webhook delivery existed', async () => {
    // Prepare: the table as an older version created it, without a stream
    const { StreamSpecification: _stream, ...withoutStream } = mainTableDefinition(name);
    await client.send(new CreateTableCommand(withoutStream));
    // Act
    await ensureTables(process.env.DYNAMODB_ENDPOINT, name, `${name}-idempotency`);
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    // Assess
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_IMAGE' });
    expect(Table?.LatestStreamArn).toBeDefined();
  });
});
