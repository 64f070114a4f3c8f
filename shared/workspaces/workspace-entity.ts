import { TABLE_KEYS } from '../db/table-design.js';
import type { KeyScope } from '../auth/api-keys.js';

/** Key builders and item shapes for workspaces and their API keys. */
export const workspaceKeys = {
  workspace: (workspaceId: string) => ({ [TABLE_KEYS.partitionKey]: `WS#${workspaceId}`, [TABLE_KEYS.sortKey]: 'WORKSPACE' }),
  /** API keys are addressed by the hash of the secret: the authorizer resolves a key with one GetItem. */
  apiKey: (keyHash: string) => ({ [TABLE_KEYS.partitionKey]: `APIKEY#${keyHash}`, [TABLE_KEYS.sortKey]: 'APIKEY' }),
};

export interface Workspace {
  id: string;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  keyId: string;
  workspaceId: string;
  scope: KeyScope;
  /** First characters of the key, safe to show to identify it. */
  displayPrefix: string;
  createdAt: string;
  revokedAt?: string;
}
