import { getItem, putItem, updateItem } from '../db/conditional.js';
import { queryAll, queryPage, type Page, type PageRequest } from '../db/query.js';
import { LIST_ORDER_INDEXES, exists, keyOfItem, notExists, type ItemKey } from '../db/table-design.js';
import { newId } from '../ids.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { generateApiKey, hashApiKey, type KeyScope } from '../auth/api-keys.js';
import {
  fromApiKeyItem, fromWorkspaceItem, toApiKeyItem, toWorkspaceItem, workspaceKeys, workspaceLimitsProblems,
  type ApiKeyRecord, type Workspace, type WorkspaceLimits,
} from './workspace-model.js';

class WorkspaceIdTakenError extends ConflictError {
  constructor() {
    super('A workspace with this id already exists.');
  }
}

/**
 * Creates a workspace under a fresh id. The SDK resends a put whose answer timed out (a loaded
 * DynamoDB); when the first send had landed, the resend meets its own item and fails the condition:
 * the item read back (strongly) being exactly this workspace means it was created.
 */
export async function createWorkspace(name: string): Promise<Workspace> {
  const workspace: Workspace = { id: newId(), name, createdAt: new Date().toISOString() };
  try {
    await putItem(toWorkspaceItem(workspace), { ...notExists(), onFailed: () => new WorkspaceIdTakenError() });
  } catch (error) {
    if (!(error instanceof WorkspaceIdTakenError)) throw error;
    const stored = await getItem(workspaceKeys.workspace(workspace.id), { consistent: true });
    const ours = stored !== undefined && fromWorkspaceItem(stored).name === name && fromWorkspaceItem(stored).createdAt === workspace.createdAt;
    if (!ours) throw error;
  }
  return workspace;
}

/** One workspace (eventually consistent: admin reads, nothing is decided on a fresh write). */
export async function getWorkspace(workspaceId: string): Promise<Workspace | undefined> {
  const item = await getItem(workspaceKeys.workspace(workspaceId));
  return item ? fromWorkspaceItem(item) : undefined;
}

/**
 * Sets a workspace's request limits (admin CLI). The local server reads them back within seconds;
 * deployed, the admin CLI applies them to the workspace's usage plan before recording them here.
 */
export async function setWorkspaceLimits(workspaceId: string, limits: WorkspaceLimits): Promise<Workspace> {
  const problems = workspaceLimitsProblems(limits);
  if (problems.length > 0) throw new ValidationError(problems.map((problem) => ({ path: problem.path, message: `${problem.path} ${problem.message}` })));
  const item = await updateItem({
    key: workspaceKeys.workspace(workspaceId),
    update: 'SET #limits = :limits',
    names: { '#limits': 'limits' },
    values: { ':limits': { rate: limits.rate, burst: limits.burst } },
    condition: { ...exists(), onFailed: () => new NotFoundError('Workspace') },
  });
  return fromWorkspaceItem(item ?? {});
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
  await putItem(toApiKeyItem(hashApiKey(apiKey), record), { ...notExists(), onFailed: () => new ConflictError('This API key already exists.') });
  return { apiKey, record };
}

/**
 * Resolves a plaintext key to its record with a single GetItem on its hash: the authorizer's whole
 * database cost. Eventually consistent (half the cost); a key minted a moment ago may take well under
 * a second to be accepted, and a revocation is in any case cached for up to 300 s by API Gateway.
 */
export async function findApiKey(apiKey: string): Promise<ApiKeyRecord | undefined> {
  const item = await getItem(workspaceKeys.apiKey(hashApiKey(apiKey)));
  return item ? fromApiKeyItem(item) : undefined;
}

/** Revokes a key; later requests with it are 401. Unknown keys are a NotFoundError. */
export async function revokeApiKey(apiKey: string): Promise<ApiKeyRecord> {
  return revokeKeyItem(workspaceKeys.apiKey(hashApiKey(apiKey)));
}

/**
 * Revokes a key by its id, for an operator who no longer holds the key itself (a leaked key whose copy
 * was lost): the workspace's keys are found in its directory partition (the key items carry their own
 * table key there), so the key is never needed. An admin path, not a request path: a workspace has a
 * handful of keys, read in one or two Queries. Unknown ids (or another workspace's) are a NotFoundError.
 */
export async function revokeApiKeyById(workspaceId: string, keyId: string): Promise<ApiKeyRecord> {
  const items = await queryAll({ index: LIST_ORDER_INDEXES.directory, partition: workspaceKeys.apiKeyDirectory(workspaceId) });
  const item = items.find((candidate) => fromApiKeyItem(candidate).keyId === keyId);
  if (!item) throw new NotFoundError('API key');
  return revokeKeyItem(keyOfItem(item));
}

async function revokeKeyItem(key: ItemKey): Promise<ApiKeyRecord> {
  const item = await updateItem({
    key,
    update: 'SET revokedAt = if_not_exists(revokedAt, :now)',
    values: { ':now': new Date().toISOString() },
    condition: { ...exists(), onFailed: () => new NotFoundError('API key') },
  });
  return fromApiKeyItem(item ?? {});
}

/** The platform's workspaces, newest first (admin CLI): one Query per page on the directory partition. */
export async function listWorkspaces(request: PageRequest): Promise<Page<Workspace>> {
  const page = await queryPage(
    { index: LIST_ORDER_INDEXES.directory, partition: workspaceKeys.workspaceDirectory, ascending: false },
    request,
    { owner: 'platform', list: 'workspaces' },
  );
  return { ...page, items: page.items.map(fromWorkspaceItem) };
}

/**
 * A workspace's keys, newest first, revoked ones included (admin CLI): one Query per page. Records
 * hold the key's id, scope and display prefix, never the key or its hash.
 */
export async function listApiKeys(workspaceId: string, request: PageRequest): Promise<Page<ApiKeyRecord>> {
  const page = await queryPage(
    { index: LIST_ORDER_INDEXES.directory, partition: workspaceKeys.apiKeyDirectory(workspaceId), ascending: false },
    request,
    { owner: workspaceId, list: 'api-keys' },
  );
  return { ...page, items: page.items.map(fromApiKeyItem) };
}
