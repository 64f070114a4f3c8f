import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/db/client.js';
import { getItem } from '../../shared/db/conditional.js';
import { fromEndpointItem, webhookKeys } from '../../shared/webhooks/webhook-model.js';
import { createApiKey } from '../../shared/workspaces/workspaces-repository.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let ws: TestWorkspace;
let foreign: TestWorkspace;
let readOnlyKey: string;

const URL_OK = 'http://127.0.0.1:9/hooks';

async function createEndpoint(workspace: TestWorkspace, body: Record<string, unknown> = {}) {
  const response = await api.request('POST', '/v1/webhook-endpoints', { key: workspace.apiKey, body: { url: URL_OK, events: ['invoice.paid'], ...body } });
  expect(response.status, response.text).toBe(201);
  return response.body.data;
}

beforeAll(async () => {
  api = await startApi();
  ws = await api.newWorkspace('Webhook endpoints');
  foreign = await api.newWorkspace('Webhook endpoints, foreign');
  ({ apiKey: readOnlyKey } = await createApiKey(ws.workspaceId, 'read_only'));
});
afterAll(async () => api.close());

describe('POST /v1/webhook-endpoints', () => {
  it('answers 201 with the endpoint and a Standard Webhooks secret shown only here', async () => {
    // Act
    const created = await api.request('POST', '/v1/webhook-endpoints', {
      key: ws.apiKey, body: { url: URL_OK, events: ['invoice.paid', 'refund.created'], description: 'Accounting' },
    });
    const read = await api.request('GET', `/v1/webhook-endpoints/${created.body.data.id}`, { key: ws.apiKey });
    // Assess
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ url: URL_OK, events: ['invoice.paid', 'refund.created'], description: 'Accounting', status: 'enabled' });
    expect(created.body.data.id).toMatch(/^[a-f0-9]{24}$/);
    expect(created.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.body.data.secret.slice(6), 'base64')).toHaveLength(32);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      id: created.body.data.id, url: URL_OK, events: ['invoice.paid', 'refund.created'], description: 'Accounting', status: 'enabled',
      createdAt: created.body.data.createdAt, updatedAt: created.body.data.updatedAt,
    });
    expect(read.text).not.toContain('ecret');
  });

  it('accepts ["*"], http://localhost and a GET body sent back as a copy', async () => {
    // Prepare
    const original = await createEndpoint(ws, { events: ['*'], url: 'http://localhost:9/all' });
    const { secret: _secret, ...copy } = original;
    // Act
    const response = await api.request('POST', '/v1/webhook-endpoints', { key: ws.apiKey, body: copy });
    // Assess
    expect(response.status, response.text).toBe(201);
    expect(response.body.data.id).not.toBe(original.id);
    expect(response.body.data.events).toEqual(['*']);
  });

  it.each([
    ['an unknown event type', { events: ['invoice.exploded'] }, 'events[0]'],
    ['an empty events list', { events: [] }, 'events'],
    ['"*" mixed with types', { events: ['*', 'invoice.paid'] }, 'events'],
    ['an http URL to a public host', { url: 'http://hooks.example.com/x' }, 'url'],
    ['a private address', { url: 'https://10.0.0.7/hooks' }, 'url'],
    ['a private address in IPv4-mapped IPv6', { url: 'https://[::ffff:192.168.1.1]/hooks' }, 'url'],
    ['the metadata address', { url: 'https://169.254.169.254/latest/meta-data' }, 'url'],
    ['a metadata host name', { url: 'https://metadata.google.internal/computeMetadata' }, 'url'],
    ['a 2,000-character URL', { url: `https://hooks.example.com/${'a'.repeat(1974)}` }, 'url'],
    ['credentials in the URL', { url: 'https://user:pass@hooks.example.com/x' }, 'url'],
    ['a relative URL', { url: '/hooks' }, 'url'],
    ['an unknown field', { secret: 'whsec_mine' }, 'secret'],
  ])('answers 422 on %s with the field path, and stores nothing', async (_case, override, path) => {
    // Prepare
    const workspace = await api.newWorkspace('Webhook bad input');
    // Act
    const response = await api.request('POST', '/v1/webhook-endpoints', { key: workspace.apiKey, body: { url: URL_OK, events: ['invoice.paid'], ...override } });
    const listing = await api.request('GET', '/v1/webhook-endpoints', { key: workspace.apiKey });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(listing.body.data).toEqual([]);
  });

  it('answers 403 to a read-only key and creates nothing', async () => {
    // Prepare
    const before = await api.request('GET', '/v1/webhook-endpoints?limit=100', { key: ws.apiKey });
    // Act
    const response = await api.request('POST', '/v1/webhook-endpoints', { key: readOnlyKey, body: { url: URL_OK, events: ['invoice.paid'] } });
    const after = await api.request('GET', '/v1/webhook-endpoints?limit=100', { key: readOnlyKey });
    // Assess
    expect(response.status).toBe(403);
    expect(after.status).toBe(200);
    expect(after.body.data).toEqual(before.body.data);
  });

  it('refuses a 17th endpoint of a workspace with 422', async () => {
    // Prepare
    const workspace = await api.newWorkspace('Webhook cap');
    for (let index = 0; index < 16; index += 1) await createEndpoint(workspace); // one by one: the cap, not write contention, is under test
    // Act
    const response = await api.request('POST', '/v1/webhook-endpoints', { key: workspace.apiKey, body: { url: URL_OK, events: ['*'] } });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.message).toMatch(/at most 16/);
  });
});

describe('GET /v1/webhook-endpoints', () => {
  it('lists the workspace\'s endpoints without secrets, and pages with cursors like page numbers', async () => {
    // Prepare
    const workspace = await api.newWorkspace('Webhook list');
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push((await createEndpoint(workspace, { description: `#${index}` })).id);
    await createEndpoint(foreign);
    // Act
    const first = await api.request('GET', '/v1/webhook-endpoints?limit=2', { key: workspace.apiKey });
    const second = await api.request('GET', `/v1/webhook-endpoints?limit=2&cursor=${first.body.nextCursor}`, { key: workspace.apiKey });
    const byPage = await api.request('GET', '/v1/webhook-endpoints?limit=2&page=1', { key: workspace.apiKey });
    const foreignCursor = await api.request('GET', `/v1/webhook-endpoints?limit=2&cursor=${first.body.nextCursor}`, { key: foreign.apiKey });
    // Assess
    expect(first.body.data.map((endpoint: { id: string }) => endpoint.id)).toEqual(ids.slice(0, 2));
    expect(second.body.data.map((endpoint: { id: string }) => endpoint.id)).toEqual(ids.slice(2, 4));
    expect(second.body.data).toEqual(byPage.body.data);
    expect(first.text).not.toContain('ecret');
    expect(foreignCursor.status).toBe(400);
  });
});

describe('GET/PATCH/DELETE /v1/webhook-endpoints/{id}', () => {
  it('answers 404 for another workspace\'s endpoint on every operation', async () => {
    // Prepare
    const endpoint = await createEndpoint(foreign);
    const base = `/v1/webhook-endpoints/${endpoint.id}`;
    // Act
    const responses = await Promise.all([
      api.request('GET', base, { key: ws.apiKey }),
      api.request('PATCH', base, { key: ws.apiKey, body: { status: 'disabled' } }),
      api.request('DELETE', base, { key: ws.apiKey }),
      api.request('POST', `${base}/rotate-secret`, { key: ws.apiKey }),
      api.request('GET', `${base}/deliveries`, { key: ws.apiKey }),
      api.request('POST', `${base}/deliveries/${endpoint.id}/redeliver`, { key: ws.apiKey }),
    ]);
    const still = await api.request('GET', base, { key: foreign.apiKey });
    // Assess
    expect(responses.map((response) => response.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(still.body.data).toMatchObject({ status: 'enabled' });
  });

  it('updates url, events, description (null removes it) and status', async () => {
    // Prepare
    const endpoint = await createEndpoint(ws, { description: 'Old' });
    // Act
    const response = await api.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, {
      key: ws.apiKey, body: { url: 'http://127.0.0.1:10/new', events: ['contact.created'], description: null, status: 'disabled' },
    });
    const read = await api.request('GET', `/v1/webhook-endpoints/${endpoint.id}`, { key: ws.apiKey });
    // Assess
    expect(response.status).toBe(200);
    expect(read.body.data).toMatchObject({ url: 'http://127.0.0.1:10/new', events: ['contact.created'], status: 'disabled' });
    expect(read.body.data).not.toHaveProperty('description');
    expect(read.body.data.updatedAt >= endpoint.updatedAt).toBe(true);
  });

  it('accepts its own GET body back unchanged', async () => {
    // Prepare
    const endpoint = await createEndpoint(ws);
    const read = await api.request('GET', `/v1/webhook-endpoints/${endpoint.id}`, { key: ws.apiKey });
    // Act
    const response = await api.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { key: ws.apiKey, body: read.body.data });
    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.url).toBe(endpoint.url);
  });

  it('refuses a private URL on update with 422 and keeps the old one', async () => {
    // Prepare
    const endpoint = await createEndpoint(ws);
    // Act
    const response = await api.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { key: ws.apiKey, body: { url: 'https://192.168.0.1/x' } });
    const read = await api.request('GET', `/v1/webhook-endpoints/${endpoint.id}`, { key: ws.apiKey });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details[0].path).toBe('url');
    expect(read.body.data.url).toBe(URL_OK);
  });

  it('deletes with 204, after which the endpoint is 404 and frees a place under the cap', async () => {
    // Prepare
    const endpoint = await createEndpoint(ws);
    // Act
    const deleted = await api.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`, { key: ws.apiKey });
    const again = await api.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`, { key: ws.apiKey });
    const read = await api.request('GET', `/v1/webhook-endpoints/${endpoint.id}`, { key: ws.apiKey });
    // Assess
    expect(deleted.status).toBe(204);
    expect(again.status).toBe(404);
    expect(read.status).toBe(404);
  });
});

describe('POST /v1/webhook-endpoints/{id}/rotate-secret', () => {
  it('answers 200 with a new secret, and never returns it afterwards', async () => {
    // Prepare
    const endpoint = await createEndpoint(ws);
    // Act
    const rotated = await api.request('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { key: ws.apiKey });
    const read = await api.request('GET', `/v1/webhook-endpoints/${endpoint.id}`, { key: ws.apiKey });
    // Assess
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(endpoint.secret);
    expect(read.text).not.toContain('ecret');
  });

  it('keeps the replaced secret, encrypted, signing for exactly 24 hours from the rotation', async () => {
    // Prepare
    const endpoint = await createEndpoint(ws);
    const before = fromEndpointItem(await getItem(webhookKeys.endpoint(ws.workspaceId, endpoint.id), { consistent: true }) ?? {});
    // Act
    const rotated = await api.request('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { key: ws.apiKey });
    const after = fromEndpointItem(await getItem(webhookKeys.endpoint(ws.workspaceId, endpoint.id), { consistent: true }) ?? {});
    // Assess
    expect(rotated.status).toBe(200);
    expect(after.previousSecretCiphertext).toBe(before.secretCiphertext);
    expect(after.secretCiphertext).not.toBe(before.secretCiphertext);
    expect(Date.parse(after.previousSecretExpiresAt as string) - Date.parse(after.updatedAt)).toBe(24 * 60 * 60 * 1000);
    expect(JSON.stringify(after)).not.toContain(endpoint.secret.slice(6));
    expect(JSON.stringify(after)).not.toContain(rotated.body.data.secret.slice(6));
  });

  it('answers 403 to a read-only key', async () => {
    // Prepare
    const endpoint = await createEndpoint(ws);
    // Act
    const response = await api.request('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { key: readOnlyKey });
    // Assess
    expect(response.status).toBe(403);
  });
});

describe('Idempotency-Key on the routes that show a secret', () => {
  /** Everything in the idempotency table, where replays of keyed POSTs are kept for 24 hours. */
  async function idempotencyTable(): Promise<string> {
    const items: unknown[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new ScanCommand({ TableName: process.env.IDEMPOTENCY_TABLE_NAME, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return JSON.stringify(items);
  }

  it('replays create and rotate-secret with the same secret, which the idempotency table never holds in clear', async () => {
    // Prepare
    const workspace = await api.newWorkspace('Webhook idempotency');
    const createKey = randomUUID();
    const rotateKey = randomUUID();
    const create = () => api.request('POST', '/v1/webhook-endpoints', { key: workspace.apiKey, headers: { 'Idempotency-Key': createKey }, body: { url: URL_OK, events: ['*'] } });
    // Act
    const created = await create();
    const createdAgain = await create();
    const rotate = () => api.request('POST', `/v1/webhook-endpoints/${created.body.data.id}/rotate-secret`, { key: workspace.apiKey, headers: { 'Idempotency-Key': rotateKey } });
    const rotated = await rotate();
    const rotatedAgain = await rotate();
    const listing = await api.request('GET', '/v1/webhook-endpoints', { key: workspace.apiKey });
    const stored = await idempotencyTable();
    // Assess: replays answer the first response, secret included (one endpoint, rotated once)...
    expect([created.status, createdAgain.status, rotated.status, rotatedAgain.status]).toEqual([201, 201, 200, 200]);
    expect(createdAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(createdAgain.body).toEqual(created.body);
    expect(rotatedAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(rotatedAgain.body).toEqual(rotated.body);
    expect(rotated.body.data.secret).not.toBe(created.body.data.secret);
    expect(listing.body.data).toHaveLength(1);
    // ...while what the table keeps for those replays is sealed, never the secrets.
    expect(stored).toContain('sealed:v1:');
    expect(stored).not.toContain(created.body.data.secret.slice(6));
    expect(stored).not.toContain(rotated.body.data.secret.slice(6));
  });

  it('keeps other routes\' replays as they were answered', async () => {
    // Prepare
    const workspace = await api.newWorkspace('Webhook idempotency, plain');
    const key = randomUUID();
    // Act
    const contact = await api.request('POST', '/v1/contacts', { key: workspace.apiKey, headers: { 'Idempotency-Key': key }, body: { email: `plain-${key}@example.com` } });
    const stored = await idempotencyTable();
    // Assess
    expect(contact.status).toBe(201);
    expect(stored).toContain(contact.body.data.id);
  });
});
