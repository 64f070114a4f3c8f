import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../bin/local/server.js';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../../functions/authorizer/policy.js';
import { flushAuthorizerCache } from '../../bin/admin/authorizer-cache.js';
import { createApiKey, createWorkspace, revokeApiKey } from '../../shared/workspaces/workspaces-repository.js';

// The local server with API Gateway's authorizer cache on (as under npm start), on a clock the test moves.
let server: LocalServer;
let clock = Date.now();
let workspaceId: string;

beforeAll(async () => {
  server = await startLocalServer({ port: 0, now: () => clock });
  workspaceId = (await createWorkspace('Cache Co')).id;
});
afterAll(async () => server.close());

function call(method: string, key: string) {
  return fetch(`${server.url}/v1/`, { method, headers: { Authorization: `Bearer ${key}` } });
}

describe('authorizer cache (API Gateway emulation)', () => {
  it('keeps a key\'s policy for the stack\'s TTL: a revoked key works until it expires, like in AWS', async () => {
    // Prepare
    const { apiKey } = await createApiKey(workspaceId, 'read_write');
    expect((await call('GET', apiKey)).status).toBe(200);
    await revokeApiKey(apiKey);
    // Act
    const cached = await call('GET', apiKey);
    clock += AUTHORIZER_CACHE_TTL_SECONDS * 1000;
    const expired = await call('GET', apiKey);
    // Assess
    expect(cached.status).toBe(200);
    expect(expired.status).toBe(401);
  });

  it('evaluates the cached policy for each request: a read-only key still cannot write', async () => {
    // Prepare
    const { apiKey } = await createApiKey(workspaceId, 'read_only');
    expect((await call('GET', apiKey)).status).toBe(200);
    // Act
    const write = await fetch(`${server.url}/v1/forms`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' }, body: '{}' });
    // Assess
    expect(write.status).toBe(403);
  });

  it('keys the cache by the Authorization value: another value is authorised on its own', async () => {
    // Prepare
    const { apiKey } = await createApiKey(workspaceId, 'read_write');
    expect((await call('GET', apiKey)).status).toBe(200);
    // Act
    const unknown = await call('GET', `${apiKey.slice(0, -1)}${apiKey.endsWith('A') ? 'B' : 'A'}`);
    // Assess
    expect(unknown.status).toBe(401);
  });

  it('forgets every cached policy when the admin CLI flushes it after a revoke: the key is 401 at once', async () => {
    // Prepare: the key's policy is cached
    const { apiKey } = await createApiKey(workspaceId, 'read_write');
    expect((await call('GET', apiKey)).status).toBe(200);
    await revokeApiKey(apiKey);
    // Act: what `npm run admin -- key revoke` does after revoking
    const flush = await flushAuthorizerCache({ aws: false, localUrl: server.url });
    const after = await call('GET', apiKey);
    // Assess
    expect(flush).toBe('flushed');
    expect(after.status).toBe(401);
  });

  it('reports that there was nothing to flush when no local server answers', async () => {
    // Act: a port nothing listens on
    const flush = await flushAuthorizerCache({ aws: false, localUrl: 'http://127.0.0.1:9' });
    // Assess
    expect(flush).toBe('no-local-server');
  });
});
