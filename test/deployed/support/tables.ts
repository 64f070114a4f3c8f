import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { resourcesOfType } from './template.js';
import type { Deployment, StackArtifact } from './deployment.js';

interface KeySchemaElement { AttributeName: string; KeyType: 'HASH' | 'RANGE' }

/**
 * Creates every DynamoDB table of a stack on DynamoDB Local from its template (keys, attribute
 * definitions, global secondary indexes with their projections, TTL, streams): the tables the
 * functions meet are the ones CloudFormation would create, not the local bootstrap's.
 */
export async function createTablesFromTemplate(deployment: Deployment, stack: StackArtifact, endpoint: string): Promise<Map<string, string>> {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'deployed', secretAccessKey: 'deployed' } });
  const names = new Map<string, string>();
  for (const [logicalId, resource] of [...resourcesOfType(stack.template, 'AWS::DynamoDB::GlobalTable'), ...resourcesOfType(stack.template, 'AWS::DynamoDB::Table')]) {
    const props = deployment.resolve(stack, resource.Properties ?? {}) as Record<string, unknown>;
    const tableName = deployment.context(stack).ref(logicalId);
    const input: CreateTableCommandInput = {
      TableName: tableName,
      AttributeDefinitions: props.AttributeDefinitions as CreateTableCommandInput['AttributeDefinitions'],
      KeySchema: props.KeySchema as KeySchemaElement[],
      BillingMode: 'PAY_PER_REQUEST',
    };
    const indexes = (props.GlobalSecondaryIndexes as Record<string, unknown>[] | undefined) ?? [];
    if (indexes.length > 0) {
      input.GlobalSecondaryIndexes = indexes.map((index) => ({
        IndexName: index.IndexName as string,
        KeySchema: index.KeySchema as KeySchemaElement[],
        Projection: (index.Projection as { ProjectionType: 'ALL' | 'KEYS_ONLY' | 'INCLUDE' } | undefined) ?? { ProjectionType: 'ALL' },
      }));
    }
    const streams = props.StreamSpecification as { StreamViewType?: string } | undefined;
    if (streams?.StreamViewType) input.StreamSpecification = { StreamEnabled: true, StreamViewType: streams.StreamViewType as 'NEW_AND_OLD_IMAGES' };
    await client.send(new CreateTableCommand(input));
    const ttl = props.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
    if (ttl?.Enabled && ttl.AttributeName) {
      await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: ttl.AttributeName, Enabled: true } }));
    }
    names.set(logicalId, tableName);
  }
  client.destroy();
  return names;
}
