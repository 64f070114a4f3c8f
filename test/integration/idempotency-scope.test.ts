import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Idempotency scope');
});
afterAll(async () => api.close());

describe('Idempotency-Key scope (API.md: keys are scoped to the workspace)', () => {
  it('answers 409 idempotency_key_reused for a key the workspace already used on another operation, and does nothing', async () => {
    // Prepare
    const key = `key-${newId()}`;
    const first = await api.request('POST', '/v1/properties', { key: workspace.apiKey, headers: { 'Idempotency-Key': key }, body: { name: `Diet ${newId()}`, type: 'Text', objectType: 'contact' } });
    expect(first.status).toBe(201);

    // Act
    const reused = await api.request('POST', '/v1/contacts', { key: workspace.apiKey, headers: { 'Idempotency-Key': key }, body: { email: `scope-${newId()}@example.com` } });
    const contacts = await api.request('GET', '/v1/contacts', { key: workspace.apiKey });

    // Assess
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    expect(contacts.body.data).toEqual([]);
  });

  it('still replays the first answer for the same key on the same operation', async () => {
    // Prepare
    const key = `key-${newId()}`;
    const body = { email: `replay-${newId()}@example.com` };
    const first = await api.request('POST', '/v1/contacts', { key: workspace.apiKey, headers: { 'Idempotency-Key': key }, body });

    // Act
    const again = await api.request('POST', '/v1/contacts', { key: workspace.apiKey, headers: { 'Idempotency-Key': key }, body });

    // Assess
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });
});
