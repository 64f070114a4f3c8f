import { beforeAll, describe, expect, it } from 'vitest';
import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import { operations as systemOperations } from '../../functions/system/handler.js';
import { newId } from '../../shared/ids.js';
import { apiEvent, context } from '../unit/support/events.js';
import { actionOperation, actionRoute, counters, echoOperation, echoRoute } from '../unit/support/test-routes.js';

// A test-only POST route registered only here, run by the real group handler against DynamoDB Local
// (the Powertools persistence layer writes to the real idempotency table).
const handler = createGroupHandler('system', systemOperations, { idempotency: runIdempotent, extraRoutes: [echoOperation, actionOperation] });
const thingId = '6740f1a2c3d4e5f601234567';

function post(workspaceId: string, key: string | undefined, body: unknown) {
  return handler(apiEvent({
    route: echoRoute,
    path: `/v1/test-things/${thingId}`,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    workspaceId,
  }), context());
}

let ws: string;
beforeAll(() => {
  ws = newId();
});

describe('Idempotency-Key on POST', () => {
  it('replays the first response for the same key and body without doing the work twice', async () => {
    // Prepare
    const key = `key-${newId()}`;
    const before = counters.echo;
    // Act
    const first = await post(ws, key, { name: 'A' });
    const second = await post(ws, key, { name: 'A' });
    // Assess
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers?.['Idempotent-Replayed']).toBe('true');
    expect(counters.echo - before).toBe(1);
  });

  it('answers 409 idempotency_key_reused for the same key with a different body', async () => {
    const key = `key-${newId()}`;
    await post(ws, key, { name: 'A' });
    const response = await post(ws, key, { name: 'B' });
    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body).error.code).toBe('idempotency_key_reused');
  });

  it('answers 409 conflict while the first request with the key is still running', async () => {
    const key = `key-${newId()}`;
    const slow = post(ws, key, { name: 'A', delayMs: 800 });
    await new Promise((done) => setTimeout(done, 200));
    const concurrent = await post(ws, key, { name: 'A', delayMs: 800 });
    expect(concurrent.statusCode).toBe(409);
    expect(JSON.parse(concurrent.body).error.code).toBe('conflict');
    // It ends by itself (unlike a uniqueness or version conflict): the answer says when to retry.
    expect(concurrent.headers?.['Retry-After']).toBe('1');
    expect((await slow).statusCode).toBe(201);
  });

  it('does not store errors: a failed request can be retried with the same key', async () => {
    const key = `key-${newId()}`;
    const failed = await post(ws, key, { name: 'A', fail: true });
    expect(failed.statusCode).toBe(422);
    const retried = await post(ws, key, { name: 'A', fail: true });
    expect(retried.statusCode).toBe(422);
    expect(retried.headers?.['Idempotent-Replayed']).toBeUndefined();
  });

  it('scopes keys to the workspace', async () => {
    const key = `key-${newId()}`;
    const before = counters.echo;
    const mine = await post(ws, key, { name: 'A' });
    const theirs = await post(newId(), key, { name: 'A' });
    expect(JSON.parse(mine.body).data.workspaceId).not.toBe(JSON.parse(theirs.body).data.workspaceId);
    expect(counters.echo - before).toBe(2);
  });

  it('runs every request without a key', async () => {
    const before = counters.echo;
    await post(ws, undefined, { name: 'A' });
    await post(ws, undefined, { name: 'A' });
    expect(counters.echo - before).toBe(2);
  });

  it('replays a route without query parameters whatever query string the retry carries: the route ignores it', async () => {
    // Prepare
    const key = `key-${newId()}`;
    const before = counters.action;
    const act = (query: string) => handler(apiEvent({
      route: actionRoute, path: `/v1/test-things/${thingId}/act${query}`, headers: { 'idempotency-key': key }, workspaceId: ws,
    }), context());
    // Act
    const first = await act('');
    const retried = await act('?cache=2');
    // Assess
    expect(first.statusCode).toBe(200);
    expect(retried.statusCode).toBe(200);
    expect(retried.headers?.['Idempotent-Replayed']).toBe('true');
    expect(counters.action - before).toBe(1);
  });

  it('refuses an overlong key with 422', async () => {
    const response = await post(ws, 'k'.repeat(256), { name: 'A' });
    expect(response.statusCode).toBe(422);
    expect(JSON.parse(response.body).error.details[0].path).toBe('Idempotency-Key');
  });
});
