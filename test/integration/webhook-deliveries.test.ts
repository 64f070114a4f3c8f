import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getItem } from '../../shared/db/conditional.js';
import { newId } from '../../shared/ids.js';
import { webhookKeys, type StoredDelivery } from '../../shared/webhooks/webhook-model.js';
import { insertDelivery } from '../../shared/webhooks/webhooks-repository.js';
import { createApiKey } from '../../shared/workspaces/workspaces-repository.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

/**
 * The deliveries list, redeliver's refusals, read-only keys and bad updates of the webhooks contract
 * (API.md "Webhooks"). No delivery machinery runs here: deliveries are written as the dispatcher
 * writes them, at chosen times, so that "newest first" has an order to show.
 */

let api: TestApi;
let ws: TestWorkspace;
let readOnlyKey: string;

const URL_OK = 'http://127.0.0.1:9/hooks';
const MINUTE = 60_000;

beforeAll(async () => {
  api = await startApi();
  ws = await api.newWorkspace('Webhook deliveries');
  ({ apiKey: readOnlyKey } = await createApiKey(ws.workspaceId, 'read_only'));
});
afterAll(async () => api.close());

async function createEndpoint(workspace: TestWorkspace, body: Record<string, unknown> = {}): Promise<{ id: string; [field: string]: unknown }> {
  const response = await api.request('POST', '/v1/webhook-endpoints', { key: workspace.apiKey, body: { url: URL_OK, events: ['invoice.paid'], ...body } });
  expect(response.status, response.text).toBe(201);
  return response.body.data;
}

/** A delivery as the dispatcher writes it, created `minutesAgo` minutes ago (for an event that may not exist). */
async function seedDelivery(workspaceId: string, endpointId: string, minutesAgo: number, fields: Partial<StoredDelivery> = {}): Promise<StoredDelivery> {
  const at = new Date(Date.now() - minutesAgo * MINUTE);
  const delivery: StoredDelivery = {
    id: newId(at), workspaceId, endpointId, eventId: newId(at), type: 'invoice.paid', status: 'succeeded', attempts: 1, lastStatusCode: 200,
    createdAt: at.toISOString(), ...fields,
  };
  expect(await insertDelivery(delivery, at)).toBe(true);
  return delivery;
}

const ids = (body: { data: { id: string }[] }) => body.data.map((delivery) => delivery.id);

describe('GET /v1/webhook-endpoints/{id}/deliveries', () => {
  it('lists the endpoint\'s deliveries newest first with the contract\'s fields, paging with cursors like page numbers', async () => {
    // Prepare: five deliveries a minute apart, and one of another endpoint of the same workspace
    const endpoint = await createEndpoint(ws);
    const other = await createEndpoint(ws);
    const seeded = [];
    for (let minutesAgo = 5; minutesAgo >= 1; minutesAgo -= 1) seeded.push(await seedDelivery(ws.workspaceId, endpoint.id, minutesAgo));
    await seedDelivery(ws.workspaceId, other.id, 0);
    const newestFirst = seeded.map((delivery) => delivery.id).reverse();
    const base = `/v1/webhook-endpoints/${endpoint.id}/deliveries`;
    // Act
    const first = await api.request('GET', `${base}?limit=2`, { key: ws.apiKey });
    const second = await api.request('GET', `${base}?limit=2&cursor=${first.body.nextCursor}`, { key: ws.apiKey });
    const third = await api.request('GET', `${base}?limit=2&cursor=${second.body.nextCursor}`, { key: ws.apiKey });
    const byPage = await api.request('GET', `${base}?limit=2&page=1`, { key: ws.apiKey });
    const oldestFirst = await api.request('GET', `${base}?direction=asc`, { key: ws.apiKey });
    // Assess
    expect(first.status).toBe(200);
    expect(ids(first.body)).toEqual(newestFirst.slice(0, 2));
    expect(first.body).toMatchObject({ page: 0, limit: 2, total: 2, hasMore: true });
    expect(ids(second.body)).toEqual(newestFirst.slice(2, 4));
    expect(second.body.data).toEqual(byPage.body.data);
    expect(ids(third.body)).toEqual(newestFirst.slice(4));
    expect(third.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(ids(oldestFirst.body)).toEqual([...newestFirst].reverse());
    const newest = seeded.at(-1) as StoredDelivery;
    expect(first.body.data[0]).toEqual({
      id: newest.id, eventId: newest.eventId, type: 'invoice.paid', status: 'succeeded', attempts: 1, lastStatusCode: 200, createdAt: newest.createdAt,
    });
  });

  it('answers 400 invalid_query to another endpoint\'s cursor, a cursor with a page, and a page past 10,000 deliveries', async () => {
    // Prepare
    const endpoint = await createEndpoint(ws);
    const other = await createEndpoint(ws);
    await seedDelivery(ws.workspaceId, endpoint.id, 2);
    await seedDelivery(ws.workspaceId, endpoint.id, 1);
    const first = await api.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=1`, { key: ws.apiKey });
    // Act
    const responses = await Promise.all([
      api.request('GET', `/v1/webhook-endpoints/${other.id}/deliveries?limit=1&cursor=${first.body.nextCursor}`, { key: ws.apiKey }),
      api.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=1&page=1&cursor=${first.body.nextCursor}`, { key: ws.apiKey }),
      api.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=100&page=100`, { key: ws.apiKey }),
      api.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=101`, { key: ws.apiKey }),
    ]);
    // Assess
    expect(typeof first.body.nextCursor).toBe('string');
    expect(responses.map((response) => response.status)).toEqual([400, 400, 400, 400]);
    expect(responses.map((response) => response.body.error.code)).toEqual(['invalid_query', 'invalid_query', 'invalid_query', 'invalid_query']);
    expect(responses[2]?.body.error.details).toEqual([{ path: 'page', message: expect.stringMatching(/cursor/) }]);
  });

  it('answers 404 for an endpoint that does not exist and for a deleted one', async () => {
    // Prepare
    const endpoint = await createEndpoint(ws);
    await seedDelivery(ws.workspaceId, endpoint.id, 1);
    expect((await api.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`, { key: ws.apiKey })).status).toBe(204);
    // Act
    const deleted = await api.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`, { key: ws.apiKey });
    const unknown = await api.request('GET', `/v1/webhook-endpoints/${newId()}/deliveries`, { key: ws.apiKey });
    // Assess
    expect([deleted.status, unknown.status]).toEqual([404, 404]);
    expect(deleted.body.error.code).toBe('not_found');
  });
});

describe('POST /v1/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver', () => {
  it('answers 404 for a delivery that does not exist or belongs to another endpoint, and writes nothing', async () => {
    // Prepare
    const endpoint = await createEndpoint(ws);
    const other = await createEndpoint(ws);
    const delivery = await seedDelivery(ws.workspaceId, other.id, 1);
    // Act
    const foreignDelivery = await api.request('POST', `/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/redeliver`, { key: ws.apiKey });
    const unknown = await api.request('POST', `/v1/webhook-endpoints/${endpoint.id}/deliveries/${newId()}/redeliver`, { key: ws.apiKey });
    const badId = await api.request('POST', `/v1/webhook-endpoints/${endpoint.id}/deliveries/not-an-id/redeliver`, { key: ws.apiKey });
    const listed = await api.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`, { key: ws.apiKey });
    // Assess
    expect([foreignDelivery.status, unknown.status, badId.status]).toEqual([404, 404, 404]);
    expect(listed.body.data).toEqual([]);
  });

  it('answers 409 invalid_state while the endpoint is disabled, and when the event is past its retention; nothing is queued', async () => {
    // Prepare
    const disabled = await createEndpoint(ws, { status: 'disabled' });
    const expired = await createEndpoint(ws);
    const onDisabled = await seedDelivery(ws.workspaceId, disabled.id, 1);
    const ofGoneEvent = await seedDelivery(ws.workspaceId, expired.id, 1); // its event was never written: as after the 30 days
    // Act
    const whileDisabled = await api.request('POST', `/v1/webhook-endpoints/${disabled.id}/deliveries/${onDisabled.id}/redeliver`, { key: ws.apiKey });
    const pastRetention = await api.request('POST', `/v1/webhook-endpoints/${expired.id}/deliveries/${ofGoneEvent.id}/redeliver`, { key: ws.apiKey });
    const lists = await Promise.all([disabled, expired].map((endpoint) => api.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`, { key: ws.apiKey })));
    // Assess
    expect([whileDisabled.status, pastRetention.status]).toEqual([409, 409]);
    expect([whileDisabled.body.error.code, pastRetention.body.error.code]).toEqual(['invalid_state', 'invalid_state']);
    expect(whileDisabled.body.error.message).toMatch(/disabled/);
    expect(pastRetention.body.error.message).toMatch(/retention/);
    expect(lists.map((list) => ids(list.body))).toEqual([[onDisabled.id], [ofGoneEvent.id]]);
  });
});

describe('read-only keys', () => {
  it('are refused every write with 403, and change nothing', async () => {
    // Prepare
    const endpoint = await createEndpoint(ws, { description: 'Kept' });
    const delivery = await seedDelivery(ws.workspaceId, endpoint.id, 1);
    const base = `/v1/webhook-endpoints/${endpoint.id}`;
    const before = await getItem(webhookKeys.endpoint(ws.workspaceId, endpoint.id), { consistent: true });
    // Act
    const responses = await Promise.all([
      api.request('PATCH', base, { key: readOnlyKey, body: { status: 'disabled', description: 'Changed' } }),
      api.request('DELETE', base, { key: readOnlyKey }),
      api.request('POST', `${base}/rotate-secret`, { key: readOnlyKey }),
      api.request('POST', `${base}/deliveries/${delivery.id}/redeliver`, { key: readOnlyKey }),
    ]);
    const after = await getItem(webhookKeys.endpoint(ws.workspaceId, endpoint.id), { consistent: true });
    const deliveries = await api.request('GET', `${base}/deliveries`, { key: ws.apiKey });
    // Assess
    expect(responses.map((response) => response.status)).toEqual([403, 403, 403, 403]);
    expect(responses.map((response) => response.body.error.code)).toEqual(['forbidden', 'forbidden', 'forbidden', 'forbidden']);
    expect(after).toEqual(before);
    expect(ids(deliveries.body)).toEqual([delivery.id]);
  });

  it('read endpoints and deliveries', async () => {
    // Prepare
    const endpoint = await createEndpoint(ws);
    const delivery = await seedDelivery(ws.workspaceId, endpoint.id, 1);
    // Act
    const responses = await Promise.all([
      api.request('GET', '/v1/webhook-endpoints?limit=100', { key: readOnlyKey }),
      api.request('GET', `/v1/webhook-endpoints/${endpoint.id}`, { key: readOnlyKey }),
      api.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`, { key: readOnlyKey }),
    ]);
    // Assess
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(responses[0]?.body.data.map((item: { id: string }) => item.id)).toContain(endpoint.id);
    expect(ids(responses[2]?.body)).toEqual([delivery.id]);
  });
});

describe('PATCH /v1/webhook-endpoints/{id} with bad input', () => {
  it.each([
    ['an unknown event type', { events: ['invoice.exploded'] }, 'events[0]'],
    ['an empty events list', { events: [] }, 'events'],
    ['an http URL to a public host', { url: 'http://hooks.example.com/x' }, 'url'],
    ['the metadata address', { url: 'https://169.254.169.254/latest/meta-data' }, 'url'],
    ['a 2,000-character URL', { url: `https://hooks.example.com/${'a'.repeat(1974)}` }, 'url'],
    ['an unknown status', { status: 'paused' }, 'status'],
  ])('answers 422 on %s with the field path, and changes nothing', async (_case, body, path) => {
    // Prepare
    const endpoint = await createEndpoint(ws);
    const before = await getItem(webhookKeys.endpoint(ws.workspaceId, endpoint.id), { consistent: true });
    // Act
    const response = await api.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { key: ws.apiKey, body });
    const after = await getItem(webhookKeys.endpoint(ws.workspaceId, endpoint.id), { consistent: true });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(after).toEqual(before);
  });
});
