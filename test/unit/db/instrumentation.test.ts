import { describe, expect, it } from 'vitest';
import { DynamoDBClient, GetItemCommand, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { ScanOnRequestPathError, formatDbStats, instrumentDynamoClient, withRequestScope } from '../../../shared/db/instrumentation.js';

/** A client that never reaches the network: a terminal middleware answers with canned outputs. */
function fakeClient(outputs: Record<string, Record<string, unknown>>) {
  const client = new DynamoDBClient({ endpoint: 'http://127.0.0.1:1', region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  const seen: Record<string, unknown>[] = [];
  client.middlewareStack.add(
    (_next, context) => async (args) => {
      seen.push(args.input as Record<string, unknown>);
      return { output: { $metadata: {}, ...outputs[context.commandName ?? ''] }, response: {} };
    },
    { step: 'finalizeRequest', name: 'fakeNetwork' },
  );
  instrumentDynamoClient(client);
  return { client, seen };
}

describe('DynamoDB instrumentation', () => {
  it('rejects a Scan on a request path before it is sent', async () => {
    const { client, seen } = fakeClient({});
    await expect(withRequestScope(() => client.send(new ScanCommand({ TableName: 't' })))).rejects.toBeInstanceOf(ScanOnRequestPathError);
    expect(seen).toHaveLength(0);
  });

  it('lets a Scan through outside a request (operator tooling)', async () => {
    const { client, seen } = fakeClient({ ScanCommand: { Items: [] } });
    await client.send(new ScanCommand({ TableName: 't' }));
    expect(seen).toHaveLength(1);
  });

  it('counts calls, consumed capacity and items read per request', async () => {
    // Prepare
    const { client, seen } = fakeClient({
      GetItemCommand: { Item: { PK: { S: 'a' } }, ConsumedCapacity: { CapacityUnits: 0.5 } },
      QueryCommand: { Items: [], Count: 3, ScannedCount: 7, ConsumedCapacity: { CapacityUnits: 1.5 } },
    });
    // Act
    const { stats } = await withRequestScope(async () => {
      await client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'a' } } }));
      await client.send(new QueryCommand({ TableName: 't', KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': { S: 'a' } } }));
    });
    // Assess
    expect(stats).toMatchObject({ calls: 2, readUnits: 2, writeUnits: 0, itemsRead: 8, commands: { GetItemCommand: 1, QueryCommand: 1 } });
    expect(seen.every((input) => input.ReturnConsumedCapacity === 'TOTAL')).toBe(true);
    expect(formatDbStats(stats)).toBe('calls=2;rcu=2;wcu=0;items=8');
  });

  it('keeps concurrent requests apart', async () => {
    const { client } = fakeClient({ GetItemCommand: { Item: { PK: { S: 'a' } } } });
    const get = () => client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'a' } } }));
    const [one, two] = await Promise.all([
      withRequestScope(async () => { await get(); }),
      withRequestScope(async () => { await get(); await get(); await get(); }),
    ]);
    expect(one.stats.calls).toBe(1);
    expect(two.stats.calls).toBe(3);
  });
});
