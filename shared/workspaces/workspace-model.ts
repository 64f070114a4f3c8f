import { LIST_ORDER_INDEXES, entityAttribute, indexKey, itemKey, type ItemKey } from '../db/table-design.js';
import type { KeyScope } from '../auth/api-keys.js';

/**
 * The workspace model: workspaces and their API keys, their keys and item mappers.
 *
 * No zod here on purpose: the authorizer loads this module on every uncached request, and zod would
 * add ~340 KB to the smallest bundle we deploy (STACK.md). Neither object is an API input or output;
 * they are written by the admin CLI and read by the authorizer, so the mappers below check the few
 * fields by hand instead.
 */

export const WORKSPACE_ENTITY = 'Workspace';
export const API_KEY_ENTITY = 'ApiKey';

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

/**
 * Key builders, the only place these keys are spelled. (This module is also loaded by the CDK app for
 * the authorizer's IAM condition, so it imports nothing that opens a database client.)
 * - workspace: `WS#<workspaceId>` / `WORKSPACE`.
 * - API key: `APIKEY#<sha256(key)>` / `APIKEY`: addressed by the hash of the secret, so the authorizer
 *   resolves a key with one GetItem and the plaintext is never stored. The IAM grant of the authorizer
 *   is limited to this partition-key prefix (`lib/api-stack.ts`).
 */
export const workspaceKeys = {
  workspace: (workspaceId: string): ItemKey => itemKey(`WS#${workspaceId}`, 'WORKSPACE'),
  apiKey: (keyHash: string): ItemKey => itemKey(`APIKEY#${keyHash}`, 'APIKEY'),
  /** The operators' directory of workspaces (admin `workspace list`): one partition, newest first. */
  workspaceDirectory: 'DIRECTORY#WORKSPACES',
  /** A workspace's keys in the directory (admin `key list`), newest first; never the key or its hash. */
  apiKeyDirectory: (workspaceId: string) => `WS#${workspaceId}#DIRECTORY#APIKEYS`,
};

/** Where an object sorts in a directory partition: creation time, then id. */
function directorySort(createdAt: string, id: string): string {
  return `${createdAt}#${id}`;
}

/** The index attributes that list a workspace in the directory (also written by the backfill). */
export function workspaceDirectoryEntry(workspace: Pick<Workspace, 'id' | 'createdAt'>): Record<string, string> {
  return indexKey(LIST_ORDER_INDEXES.directory, workspaceKeys.workspaceDirectory, directorySort(workspace.createdAt, workspace.id));
}

/** The index attributes that list a key under its workspace in the directory. */
export function apiKeyDirectoryEntry(record: Pick<ApiKeyRecord, 'workspaceId' | 'keyId' | 'createdAt'>): Record<string, string> {
  return indexKey(LIST_ORDER_INDEXES.directory, workspaceKeys.apiKeyDirectory(record.workspaceId), directorySort(record.createdAt, record.keyId));
}

export function toWorkspaceItem(workspace: Workspace): Record<string, unknown> {
  return { ...workspaceKeys.workspace(workspace.id), ...workspaceDirectoryEntry(workspace), ...entityAttribute(WORKSPACE_ENTITY), ...workspace };
}

export function fromWorkspaceItem(item: Record<string, unknown>): Workspace {
  return { id: String(item.id), name: String(item.name), createdAt: String(item.createdAt) };
}

export function toApiKeyItem(keyHash: string, record: ApiKeyRecord): Record<string, unknown> {
  return { ...workspaceKeys.apiKey(keyHash), ...apiKeyDirectoryEntry(record), ...entityAttribute(API_KEY_ENTITY), ...record };
}

const SCOPES: readonly KeyScope[] = ['read_write', 'read_only'];

/**
 * The stored key record, without the design's attributes. An item whose scope is not one we issue is
 * read as read-only: a damaged record must never widen what a key may do.
 */
export function fromApiKeyItem(rest: Record<string, unknown>): ApiKeyRecord {
  const scope = SCOPES.includes(rest.scope as KeyScope) ? rest.scope as KeyScope : 'read_only';
  return {
    keyId: String(rest.keyId),
    workspaceId: String(rest.workspaceId),
    scope,
    displayPrefix: String(rest.displayPrefix),
    createdAt: String(rest.createdAt),
    ...(typeof rest.revokedAt === 'string' ? { revokedAt: rest.revokedAt } : {}),
  };
}
