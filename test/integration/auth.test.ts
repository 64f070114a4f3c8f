import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../shared/workspaces/workspaces-repository.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace();
});
afterAll(async () => api.close());

describe('API key authorizer', () => {
  it.each([
    ['a missing header', undefined],
    ['a non-Bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['a malformed key', 'Bearer not-a-key'],
    ['an unknown key', 'Bearer bo_live_00000000000000000000000000000000000000'],
  ])('rejects %s with the 401 envelope', async (_label, header) => {
    const response = await api.request('GET', '/v1/', { headers: header ? { Authorization: header } : {} });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthorized');
  });

  it('rejects a revoked key with 401', async () => {
    // Prepare
    const { apiKey } = await createApiKey(workspace.workspaceId, 'read_write');
    expect((await api.request('GET', '/v1/', { key: apiKey })).status).toBe(200);
    // Act
    await revokeApiKey(apiKey);
    const response = await api.request('GET', '/v1/', { key: apiKey });
    // Assess
    expect(response.status).toBe(401);
  });

  it('lets a read-only key read', async () => {
    const { apiKey } = await createApiKey(workspace.workspaceId, 'read_only');
    const response = await api.request('GET', '/v1/', { key: apiKey });
    expect(response.status).toBe(200);
  });
});
