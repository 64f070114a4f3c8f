import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '../db/client.js';
import { TABLE_KEYS } from '../db/table-design.js';
import { newId } from '../ids.js';
import { NotFoundError } from '../errors.js';
import { generateApiKey, hashApiKey, type KeyScope } from '../auth/api-keys.js';
import { workspaceKeys, type ApiKeyRecord, type Workspace } from './workspace-entity.js';

export async function createWorkspace(name: string): Promise<Workspace> {
  const workspace: Workspace = { id: newId(), name, createdAt: new Date().toISOString() };
  await db.send(new PutCommand({
    TableName: tableName(),
    Item: { ...workspaceKeys.workspace(workspace.id), [TABLE_KEYS.entityType]: 'Workspace', ...workspace },
    ConditionExpression: 'attribute_not_exists(#pk)',
    ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
  }));
  return workspace;
}

export async function getWorkspace(workspaceId: string): Promise<Workspace | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: workspaceKeys.workspace(workspaceId) }));
  if (!Item) return undefined;
  return { id: Item.id, name: Item.name, createdAt: Item.createdAt };
}

/**
 * Mints a key for a workspace. Only the SHA-256 hash is stored; the returned plaintext is shown once.
 */
export async function createApiKey(workspaceId: string, scope: KeyScope): Promise<{ apiKey: string; record: ApiKeyRecord }> {
  if (!(await getWorkspace(workspaceId))) throw new NotFoundError('Workspace');
  const apiKey = generateApiKey();
  const record: ApiKeyRecord = {
    keyId: newId(),
    workspaceId,
    scope,
    displayPrefix: apiKey.slice(0, 12),
    createdAt: new Date().toISOString(),
  };
  await db.send(new PutCommand({
    TableName: tableName(),
    Item: { ...workspaceKeys.apiKey(hashApiKey(apiKey)), [TABLE_KEYS.entityType]: 'ApiKey', ...record },
    ConditionExpression: 'attribute_not_exists(#pk)',
    ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
  }));
  return { apiKey, record };
}

/** Resolves a plaintext key to its record with a single GetItem on its hash. */
export async function findApiKey(apiKey: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: workspaceKeys.apiKey(hashApiKey(apiKey)) }));
  if (!Item) return undefined;
  return {
    keyId: Item.keyId,
    workspaceId: Item.workspaceId,
    scope: Item.scope,
    displayPrefix: Item.displayPrefix,
    createdAt: Item.createdAt,
    revokedAt: Item.revokedAt,
  };
}

/** Revokes a key; later requests with it are 401. Unknown keys are a NotFoundError. */
export async function revokeApiKey(apiKey: string): Promise<ApiKeyRecord> {
  try {
    const { Attributes } = await db.send(new UpdateCommand({
      TableName: tableName(),
      Key: workspaceKeys.apiKey(hashApiKey(apiKey)),
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
      ConditionExpression: 'attribute_exists(#pk)',
      ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
      ExpressionAttributeValues: { ':now': new Date().toISOString() },
      ReturnValues: 'ALL_NEW',
    }));
    return Attributes as ApiKeyRecord;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NotFoundError('API key');
    throw error;
  }
}
