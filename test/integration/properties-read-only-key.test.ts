import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../shared/workspaces/workspaces-repository.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;
let readOnlyKey: string;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Read-only properties');
  ({ apiKey: readOnlyKey } = await createApiKey(workspace.workspaceId, 'read_only'));
});
afterAll(async () => api.close());

describe('read-only API key on /v1/properties', () => {
  it('answers 403 forbidden on POST /v1/properties and creates nothing', async () => {
    // Act
    const response = await api.request('POST', '/v1/properties', { key: readOnlyKey, body: { type: 'Text', name: 'Nickname', objectType: 'contact' } });
    const listing = await api.request('GET', '/v1/properties', { key: workspace.apiKey });
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('forbidden');
    expect(listing.body.data).toEqual([]);
  });

  it('answers 200 on GET /v1/properties with the workspace\'s properties', async () => {
    // Prepare
    await api.request('POST', '/v1/properties', { key: workspace.apiKey, body: { type: 'Number', name: 'Age', objectType: 'contact' } });
    // Act
    const response = await api.request('GET', '/v1/properties', { key: readOnlyKey });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((p: { name: string }) => p.name)).toEqual(['Age']);
  });
});
