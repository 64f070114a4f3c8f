import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTables } from '../../bin/local/bootstrap.js';
import { mainTableDefinition } from '../../shared/db/table-design.js';

const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
const name = `bootstrap-stream-${Date.now()}`;
const older = `bootstrap-indexes-${Date.now()}`;
afterAll(async () => {
  await Promise.all([name, `${name}-idempotency`, older, `${older}-idempotency`].map((TableName) => client.send(new DeleteTableCommand({ TableName })).catch(() => undefined)));
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

  it('adds the indexes of the design that a kept table lacks (the creation order, GSI3)', async () => {
    // Prepare: the table as the version before the creation-order index created it
    const definition = mainTableDefinition(older);
    const indexes = (definition.GlobalSecondaryIndexes ?? []).filter((index) => index.IndexName !== 'GSI3');
    const attributes = (definition.AttributeDefinitions ?? []).filter((attribute) => !attribute.AttributeName?.startsWith('GSI3'));
    await client.send(new CreateTableCommand({ ...definition, GlobalSecondaryIndexes: indexes, AttributeDefinitions: attributes }));
    // Act
    await ensureTables(process.env.DYNAMODB_ENDPOINT, older, `${older}-idempotency`);
    const { Table } = await client.send(new DescribeTableCommand({ TableName: older }));
    // Assess
    expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(['GSI1', 'GSI2', 'GSI3']);
  });
});
