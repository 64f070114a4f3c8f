import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getItem, putItem } from '../../shared/db/conditional.js';
import { INDEXES, LIST_ORDER_INDEXES } from '../../shared/db/table-design.js';
import { createPartner } from '../../shared/partners/partners-repository.js';
import { partnerDirectoryBackfill } from '../../shared/partners/partner-backfill.js';
import { fromPartnerItem, partnerKeys, toPartnerItem } from '../../shared/partners/partner-model.js';
import { WORKSPACE_BACKFILL_STEPS } from '../../shared/workspaces/workspace-backfill.js';
import { toApiKeyItem, toWorkspaceItem, workspaceKeys } from '../../shared/workspaces/workspace-model.js';
import { createApiKey, createWorkspace, listApiKeys, listWorkspaces, revokeApiKey } from '../../shared/workspaces/workspaces-repository.js';
import { hashApiKey } from '../../shared/auth/api-keys.js';
import { listPartners } from '../../shared/partners/partners-repository.js';
import { admin } from './support/admin.js';
import { startApi, type TestApi } from './support/api.js';

let api: TestApi;

/** The stored item as older code wrote it: without the directory's index attributes. */
async function withoutDirectoryEntry(item: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { partitionKey, sortKey } = INDEXES[LIST_ORDER_INDEXES.directory];
  const { [partitionKey]: _partition, [sortKey]: _sort, ...legacy } = item;
  await putItem(legacy);
  return legacy;
}

const firstPage = { page: 0, limit: 100 };

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

// Each command is a tsx process: seconds apiece on a loaded machine.
describe('admin list commands', { timeout: 180_000 }, () => {
  it('lists workspaces newest first, one page at a time with a cursor', async () => {
    // Prepare
    const older = await createWorkspace('Directory A');
    const newer = await createWorkspace('Directory B');

    // Act
    const all = await admin('workspace', 'list', '--limit', '100', '--json');
    const first = JSON.parse((await admin('workspace', 'list', '--limit', '1', '--json')).stdout) as { data: { id: string }[]; nextCursor: string };
    const second = JSON.parse((await admin('workspace', 'list', '--limit', '1', '--cursor', first.nextCursor, '--json')).stdout) as { data: { id: string }[] };
    const text = await admin('workspace', 'list', '--limit', '1');

    // Assess
    expect(all.code).toBe(0);
    const ids = (JSON.parse(all.stdout) as { data: { id: string; name: string }[] }).data.map((workspace) => workspace.id);
    expect(ids.indexOf(newer.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(first.data).toHaveLength(1);
    expect(second.data).toHaveLength(1);
    expect(second.data[0]?.id).not.toBe(first.data[0]?.id);
    expect(text.stdout).toMatch(/More: npm run admin -- workspace list --cursor \S+/);
  });

  it("lists a workspace's keys with scope and revocation, never the key or its hash", async () => {
    // Prepare
    const { id: workspaceId } = await createWorkspace('Keys Co');
    const { apiKey } = await createApiKey(workspaceId, 'read_write');
    const readOnly = await createApiKey(workspaceId, 'read_only');
    await revokeApiKey(apiKey);

    // Act
    const listed = await admin('key', 'list', '--workspace', workspaceId, '--json');

    // Assess
    expect(listed.code).toBe(0);
    const keys = (JSON.parse(listed.stdout) as { data: { keyId: string; scope: string; revokedAt?: string }[] }).data;
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatchObject({ keyId: readOnly.record.keyId, scope: 'read_only' });
    expect(keys[0]?.revokedAt).toBeUndefined();
    expect(keys[1]).toMatchObject({ scope: 'read_write', revokedAt: expect.any(String) });
    expect(listed.stdout).not.toContain(apiKey);
    expect(listed.stdout).not.toContain(readOnly.apiKey);
    expect(listed.stdout).not.toContain(hashApiKey(apiKey));
  });

  it('lists partners newest first', async () => {
    // Prepare
    const code = `dir-${Date.now()}`;
    await createPartner({ referral_code: code, companyName: 'Directory Partners' });

    // Act
    const listed = await admin('partner', 'list', '--json');

    // Assess
    expect(listed.code).toBe(0);
    const partners = (JSON.parse(listed.stdout) as { data: { referral_code: string; companyName?: string }[] }).data;
    expect(partners.find((partner) => partner.referral_code === code)).toMatchObject({ companyName: 'Directory Partners' });
  });

  it.each([
    [['key', 'list', '--workspace', 'ffffffffffffffffffffffff', '--json'], 'not_found', 'Workspace not found'],
    [['workspace', 'list', '--limit', '0', '--json'], 'usage', '--limit must be'],
    [['workspace', 'list', '--cursor', 'bogus', '--json'], 'invalid_query', 'cursor'],
    [['workspace', 'create', '--json'], 'usage', 'Missing --name'],
  ])('answers %j with a JSON error on stderr', async (args, code, message) => {
    // Act
    const result = await admin(...args);

    // Assess
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    // (npx and Node may print their own warnings first: the command's error is the last line.)
    const { error } = JSON.parse(result.stderr.trim().split('\n').at(-1) as string) as { error: { code: string; message: string } };
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });
});

describe('directory backfill steps', () => {
  it('list workspaces and keys written before the directory, once, without undoing a revocation', async () => {
    // Prepare: a workspace and a key as older code stored them, then the key is revoked after the scan read it.
    const workspace = await createWorkspace('Legacy Co');
    const { apiKey, record } = await createApiKey(workspace.id, 'read_write');
    const legacyWorkspace = await withoutDirectoryEntry(toWorkspaceItem(workspace));
    const legacyKey = await withoutDirectoryEntry(toApiKeyItem(hashApiKey(apiKey), record));
    expect((await listApiKeys(workspace.id, firstPage)).items).toEqual([]);
    await revokeApiKey(apiKey);
    const [workspaceStep, keyStep] = WORKSPACE_BACKFILL_STEPS;

    // Act
    const written = [await workspaceStep!.rebuild(legacyWorkspace), await keyStep!.rebuild(legacyKey)];
    const again = [
      await workspaceStep!.rebuild((await getItem(workspaceKeys.workspace(workspace.id), { consistent: true }))!),
      await keyStep!.rebuild((await getItem(workspaceKeys.apiKey(hashApiKey(apiKey)), { consistent: true }))!),
    ];

    // Assess
    expect(written).toEqual([1, 1]);
    expect(again).toEqual([0, 0]);
    expect((await listWorkspaces(firstPage)).items.map((item) => item.id)).toContain(workspace.id);
    const [key] = (await listApiKeys(workspace.id, firstPage)).items;
    expect(key).toMatchObject({ keyId: record.keyId, revokedAt: expect.any(String) });
  });

  it('lists partners written before the directory', async () => {
    // Prepare
    const partner = await createPartner({ referral_code: `legacy-${Date.now()}` });
    const legacy = await withoutDirectoryEntry(toPartnerItem(partner));

    // Act
    const written = await partnerDirectoryBackfill.rebuild(legacy);

    // Assess
    expect(written).toBe(1);
    expect((await listPartners(firstPage)).items.map((item) => item._id)).toContain(partner._id);
    expect(fromPartnerItem((await getItem(partnerKeys.partner(partner._id), { consistent: true }))!)).toEqual(partner);
  });
});
