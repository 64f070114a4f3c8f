import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetRunningApi, recordRunningApi } from '../../bin/local/running-apis.js';
import { localRoutes } from '../../bin/local/local-routes.js';
import { startLocalServer } from '../../bin/local/server.js';
import { admin, adminWith } from './support/admin.js';
import { startApi, type TestApi } from './support/api.js';

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

describe('npm run admin', () => {
  it('creates a workspace whose key the running server accepts, and revokes it', async () => {
    // Act
    const created = await admin('workspace', 'create', '--name', 'CLI Co', '--json');
    // Assess
    expect(created.code).toBe(0);
    const { workspaceId, apiKey } = JSON.parse(created.stdout) as { workspaceId: string; apiKey: string };
    expect(workspaceId).toMatch(/^[a-f0-9]{24}$/);
    expect(apiKey).toMatch(/^bo_live_[0-9A-Za-z]{40}$/);
    expect((await api.request('GET', '/v1/', { key: apiKey })).status).toBe(200);

    const revoked = await admin('key', 'revoke', '--key', apiKey, '--json');
    expect(revoked.code).toBe(0);
    expect((await api.request('GET', '/v1/', { key: apiKey })).status).toBe(401);
  });

  it('revokes a key a running server had cached: 401 at once, found from the DynamoDB it serves whatever its port', async () => {
    // Prepare: a server that caches authorizer answers for 300 s, as npm start does, on a port of its own
    const cached = await startLocalServer({ port: 0, localRoutes, authorizerCacheTtlSeconds: 300 });
    const dynamoEndpoint = process.env.DYNAMODB_ENDPOINT as string;
    recordRunningApi(dynamoEndpoint, cached.url);
    const { apiKey } = await api.newWorkspace();
    const call = async () => (await fetch(`${cached.url}/v1/`, { headers: { Authorization: `Bearer ${apiKey}` } })).status;
    try {
      expect(await call()).toBe(200);
      const { PORT: _port, ...withoutPort } = process.env;
      // Act
      const revoked = await adminWith(withoutPort, 'key', 'revoke', '--key', apiKey, '--json');
      // Assess
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(JSON.parse(revoked.stdout)).toMatchObject({ authorizerCacheFlushed: true });
      expect(await call()).toBe(401);
    } finally {
      forgetRunningApi(dynamoEndpoint, cached.url);
      await cached.close();
    }
  });

  it('revokes a key by its id from key list, without the key: that key gets 401 at once, the workspace\'s other key still works', async () => {
    // Prepare
    const { workspaceId, apiKey } = await api.newWorkspace();
    const other = JSON.parse((await admin('key', 'create', '--workspace', workspaceId, '--json')).stdout) as { keyId: string; apiKey: string };
    const listed = JSON.parse((await admin('key', 'list', '--workspace', workspaceId, '--json')).stdout) as { data: { keyId: string }[] };
    const leaked = listed.data.map((key) => key.keyId).find((keyId) => keyId !== other.keyId) as string;
    expect((await api.request('GET', '/v1/', { key: apiKey })).status).toBe(200);

    // Act
    const revoked = await admin('key', 'revoke', '--workspace', workspaceId, '--key-id', leaked, '--json');

    // Assess
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ keyId: leaked, workspaceId, revokedAt: expect.any(String) });
    expect((await api.request('GET', '/v1/', { key: apiKey })).status).toBe(401);
    expect((await api.request('GET', '/v1/', { key: other.apiKey })).status).toBe(200);
  });

  it('refuses to revoke a key id of another workspace, or an unknown one, as not found', async () => {
    // Prepare
    const mine = await api.newWorkspace();
    const theirs = await api.newWorkspace();
    const theirKeyId = (JSON.parse((await admin('key', 'list', '--workspace', theirs.workspaceId, '--json')).stdout) as { data: { keyId: string }[] }).data[0]?.keyId as string;

    // Act
    const crossed = await admin('key', 'revoke', '--workspace', mine.workspaceId, '--key-id', theirKeyId, '--json');
    const both = await admin('key', 'revoke', '--key', theirs.apiKey, '--key-id', theirKeyId);

    // Assess
    expect(crossed.code).toBe(1);
    expect(JSON.parse(crossed.stderr.trim().split('\n').at(-1) as string)).toMatchObject({ error: { code: 'not_found' } });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('not both');
    expect((await api.request('GET', '/v1/', { key: theirs.apiKey })).status).toBe(200);
  });

  it('creates a read-only key for an existing workspace', async () => {
    const { workspaceId } = await api.newWorkspace();
    const created = await admin('key', 'create', '--workspace', workspaceId, '--read-only', '--json');
    expect(created.code).toBe(0);
    const body = JSON.parse(created.stdout) as { scope: string; apiKey: string };
    expect(body.scope).toBe('read_only');
    expect((await api.request('GET', '/v1/', { key: body.apiKey })).status).toBe(200);
  });

  it('creates a partner and refuses a duplicate referral code', async () => {
    const code = `cli-${Date.now()}`;
    const first = await admin('partner', 'create', '--code', code, '--first-name', 'Pat', '--json');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ referral_code: code });
    const second = await admin('partner', 'create', '--code', code);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('already exists');
  });

  it.each([
    [['workspace', 'create'], 'Missing --name'],
    [['key', 'create', '--workspace'], 'argument missing'],
    [['key', 'revoke', '--key', 'not-a-key'], 'not a Boxoffice API key'],
    [['key', 'create', '--workspace', 'ffffffffffffffffffffffff'], 'Workspace not found'],
    [['frobnicate', 'now'], 'Unknown command'],
    [['workspace', 'create', '--name', 'x', '--bogus'], "Unknown option '--bogus'"],
    [['workspace', 'limits', '--workspace', 'ffffffffffffffffffffffff', '--rate', '5', '--burst', '10'], 'Workspace not found'],
    [['workspace', 'limits', '--workspace', 'x', '--rate', 'fast', '--burst', '10'], '--rate must be a number'],
    [['workspace', 'limits', '--workspace', 'x', '--rate', '20000', '--burst', '2.5'], '--burst must be a whole number of requests from 1 to 5000'],
    [['workspace', 'limits', '--workspace', 'x', '--rate', '5', '--burst', '10', '--aws'], 'set REST_API_ID and API_STAGE'],
    [['workspace', 'usage-plans'], 'Usage plans exist only deployed: add --aws'],
  ])('exits 1 with a clear message for %j', async (args, message) => {
    const result = await admin(...args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });

  it('prints help for every command', async () => {
    const result = await admin('key', 'create', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: npm run admin -- key create');
  });
});
