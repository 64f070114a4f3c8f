import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Idempotent properties');
});
afterAll(async () => api.close());

function post(body: Record<string, unknown>, idempotencyKey: string) {
  return api.request('POST', '/v1/properties', { key: workspace.apiKey, body, headers: { 'Idempotency-Key': idempotencyKey } });
}

describe('POST /v1/properties with Idempotency-Key', () => {
  it('replays the first 201 for the same key and body and creates one property', async () => {
    // Prepare
    const body = { type: 'Text', name: 'Company', objectType: 'contact' };
    // Act
    const first = await post(body, 'create-company-1');
    const replay = await post(body, 'create-company-1');
    const listing = await api.request('GET', '/v1/properties?objectType=contact', { key: workspace.apiKey });
    // Assess
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(listing.body.data.filter((p: { name: string }) => p.name === 'Company')).toHaveLength(1);
  });

  it('answers 409 idempotency_key_reused for the same key with a different body', async () => {
    // Prepare
    await post({ type: 'Text', name: 'Job title', objectType: 'contact' }, 'create-job-title');
    // Act
    const response = await post({ type: 'Text', name: 'Job role', objectType: 'contact' }, 'create-job-title');
    // Assess
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('idempotency_key_reused');
  });
});
