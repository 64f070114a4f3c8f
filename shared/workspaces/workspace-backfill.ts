import { addIndexAttributes, type BackfillStep } from '../db/backfill.js';
import {
  API_KEY_ENTITY, WORKSPACE_ENTITY, apiKeyDirectoryEntry, fromApiKeyItem, fromWorkspaceItem, workspaceDirectoryEntry,
} from './workspace-model.js';

/**
 * The operators' directory entries (admin `workspace list`, `key list`) of workspaces and keys made
 * before the directory existed: index attributes on the items themselves, set alone (a key revoked
 * meanwhile stays revoked). A second run writes nothing.
 */
export const WORKSPACE_BACKFILL_STEPS: readonly BackfillStep[] = [
  {
    name: 'workspace directory entries (admin workspace list)',
    entity: WORKSPACE_ENTITY,
    rebuild: (item) => addIndexAttributes(item, workspaceDirectoryEntry(fromWorkspaceItem(item))),
  },
  {
    name: 'API key directory entries (admin key list)',
    entity: API_KEY_ENTITY,
    rebuild: (item) => addIndexAttributes(item, apiKeyDirectoryEntry(fromApiKeyItem(item))),
  },
];
