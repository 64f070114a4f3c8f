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

/**
 * A workspace's request limits, in API Gateway's throttle model: a steady rate (requests per second,
 * fractions allowed) and a burst (requests accepted at once). Deployed they are the workspace's usage
 * plan; the local server reads them from the workspace item.
 */
export interface WorkspaceLimits {
  rate: number;
  burst: number;
}

/**
 * What a usage plan may hold: API Gateway refuses a plan above the account's own throttle (10,000
 * requests/s and a burst of 5,000 by default), and its burst is a whole number.
 */
export const WORKSPACE_LIMIT_BOUNDS = { rate: { min: 0.01, max: 10_000 }, burst: { min: 1, max: 5_000 } } as const;

export interface Workspace {
  id: string;
  name: string;
  createdAt: string;
  /** Absent: the defaults of the deployment (`shared/http/rate-limits.ts`). */
  limits?: WorkspaceLimits;
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

/** The problems of a limits pair, as `{path, message}` details (empty when it is valid). */
export function workspaceLimitsProblems(limits: WorkspaceLimits): { path: 'rate' | 'burst'; message: string }[] {
  const { rate, burst } = WORKSPACE_LIMIT_BOUNDS;
  const problems: { path: 'rate' | 'burst'; message: string }[] = [];
  if (!Number.isFinite(limits.rate) || limits.rate < rate.min || limits.rate > rate.max) {
    problems.push({ path: 'rate', message: `must be a number of requests per second from ${rate.min} to ${rate.max}` });
  }
  if (!Number.isInteger(limits.burst) || limits.burst < burst.min || limits.burst > burst.max) {
    problems.push({ path: 'burst', message: `must be a whole number of requests from ${burst.min} to ${burst.max}` });
  }
  return problems;
}

/** Stored limits, or undefined when absent or damaged (the defaults then apply: never a zero limit). */
function limitsOf(value: unknown): WorkspaceLimits | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { rate, burst } = value as Record<string, unknown>;
  if (typeof rate !== 'number' || typeof burst !== 'number') return undefined;
  return workspaceLimitsProblems({ rate, burst }).length === 0 ? { rate, burst } : undefined;
}

export function fromWorkspaceItem(item: Record<string, unknown>): Workspace {
  const limits = limitsOf(item.limits);
  return { id: String(item.id), name: String(item.name), createdAt: String(item.createdAt), ...(limits ? { limits } : {}) };
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
