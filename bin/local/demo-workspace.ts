import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.js';
import { TABLE_KEYS } from '../../shared/db/table-design.js';
import { createApiKey, createWorkspace } from '../../shared/workspaces/workspaces-repository.js';

const DEMO_MARKER = { [TABLE_KEYS.partitionKey]: 'LOCAL#DEMO', [TABLE_KEYS.sortKey]: 'DEMO' };

/**
 * The demo workspace of `npm start`. With `--data-dir` it survives restarts; since only key hashes are
 * stored, every start mints a fresh key for it. `created` tells whether demo data still has to be seeded.
 */
export async function ensureDemoWorkspace(): Promise<{ workspaceId: string; apiKey: string; created: boolean }> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: DEMO_MARKER }));
  let workspaceId = Item?.workspaceId as string | undefined;
  const created = !workspaceId;
  if (!workspaceId) {
    workspaceId = (await createWorkspace('Demo Workspace')).id;
    await db.send(new PutCommand({ TableName: tableName(), Item: { ...DEMO_MARKER, [TABLE_KEYS.entityType]: 'LocalDemoMarker', workspaceId } }));
  }
  const { apiKey } = await createApiKey(workspaceId, 'read_write');
  return { workspaceId, apiKey, created };
}

/** The demo workspace's id, or undefined before `npm start` created it. */
export async function findDemoWorkspaceId(): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: DEMO_MARKER }));
  return typeof Item?.workspaceId === 'string' ? Item.workspaceId : undefined;
}
