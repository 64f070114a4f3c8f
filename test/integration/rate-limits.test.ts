import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../bin/local/server.js';
import { LIMITS_REFRESH_SECONDS } from '../../shared/http/rate-limits.js';
import { createApiKey, createWorkspace } from '../../shared/workspaces/workspaces-repository.js';
import { admin } from './support/admin.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request from a chosen loopback address (every 127.x.y.z reaches the server on Linux). */
function send(url: string, options: { method?: string; localAddress?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', localAddress: options.localAddress, headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function expectRateLimited(answer: Answer): void {
  expect(answer.status).toBe(429);
  expect(JSON.parse(answer.body)).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
  expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number.isInteger(Number(answer.headers['retry-after']))).toBe(true);
}

describe('rate limits per workspace', () => {
  let api: TestApi;
  let limited: TestWorkspace;
  let other: TestWorkspace;

  beforeAll(async () => {
    api = await startApi();
    limited = await api.newWorkspace('Limited Co');
    other = await api.newWorkspace('Other Co');
  });
  afterAll(async () => api.close());

  const get = (workspace: { apiKey: string }) => send(`${api.url}/v1/`, { headers: { Authorization: `Bearer ${workspace.apiKey}` } });

  it('answers 429 with Retry-After above the limits set with the admin CLI, within 5 s, while another workspace is unaffected', async () => {
    // Prepare: both workspaces are busy under the (generous) defaults.
    expect((await get(limited)).status).toBe(200);
    expect((await get(other)).status).toBe(200);

    // Act: an operator lowers one workspace's limits, then its client keeps sending.
    const set = await admin('workspace', 'limits', '--workspace', limited.workspaceId, '--rate', '1', '--burst', '5', '--json');
    expect(set.code, set.stderr).toBe(0);
    const appliedFrom = Date.now();
    let answer = await get(limited);
    while (answer.status !== 429 && Date.now() - appliedFrom < 5_000) answer = await get(limited);
    const appliedAfterMs = Date.now() - appliedFrom;

    // Assess
    expect(JSON.parse(set.stdout)).toEqual({ workspaceId: limited.workspaceId, rate: 1, burst: 5 });
    expect(appliedAfterMs).toBeLessThan(5_000);
    expectRateLimited(answer);
    expect(answer.headers['x-request-id']).toBeDefined();
    const others = await Promise.all(Array.from({ length: 30 }, () => get(other)));
    expect(others.map((response) => response.status)).toEqual(others.map(() => 200));
  });

  it('limits the workspace, not the key: its other keys share the limit', async () => {
    // Prepare
    const { apiKey } = await createApiKey(limited.workspaceId, 'read_only');

    // Act
    const answers = await Promise.all(Array.from({ length: 8 }, () => get({ apiKey })));

    // Assess
    expect(answers.some((response) => response.status === 429)).toBe(true);
  });

  it('lets the workspace through again once Retry-After has passed', async () => {
    // Prepare
    let answer = await get(limited);
    while (answer.status !== 429) answer = await get(limited);

    // Act
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers['retry-after']) * 1000 + 100));
    const after = await get(limited);

    // Assess
    expect(after.status).toBe(200);
  });

  it('limits writes and reads alike, answering before the handler runs (nothing is written)', async () => {
    // Prepare
    let answer = await get(limited);
    while (answer.status !== 429) answer = await get(limited);

    // Act
    const write = await send(`${api.url}/v1/properties`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${limited.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'Text', name: 'Throttled', objectType: 'contact' }),
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const list = await send(`${api.url}/v1/properties`, { headers: { Authorization: `Bearer ${limited.apiKey}` } });

    // Assess
    expectRateLimited(write);
    expect(list.status).toBe(200);
    expect((JSON.parse(list.body) as { data: unknown[] }).data).toEqual([]);
  });

  it('applies raised limits too', async () => {
    // Act
    const set = await admin('workspace', 'limits', '--workspace', limited.workspaceId, '--rate', '500', '--burst', '500', '--json');
    await new Promise((resolve) => setTimeout(resolve, (LIMITS_REFRESH_SECONDS + 1) * 1000));
    await get(limited); // the first request after the interval reads the new limits
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answers = await Promise.all(Array.from({ length: 40 }, () => get(limited)));

    // Assess
    expect(set.code, set.stderr).toBe(0);
    expect(answers.map((response) => response.status)).toEqual(answers.map(() => 200));
  });
});

describe('rate limits per client address on the public routes', () => {
  let server: LocalServer;
  let apiKey: string;

  beforeAll(async () => {
    // A small per-address limit for this server only; the defaults are ten times the deployed ones.
    server = await startLocalServer({ port: 0, authorizerCacheTtlSeconds: 0, rateLimits: { publicPerAddress: { rate: 1, burst: 3 } } });
    apiKey = (await createApiKey((await createWorkspace('Address Co')).id, 'read_write')).apiKey;
  });
  afterAll(async () => server.close());

  it('answers 429 with Retry-After and CORS to one address above the limit, while another address is served', async () => {
    // Prepare
    const listing = `${server.url}/partner/events?referral_code=NOBODY-${Date.now()}`;

    // Act
    const first = await Promise.all(Array.from({ length: 4 }, () => send(listing, { localAddress: '127.0.0.1' })));
    const elsewhere = await send(listing, { localAddress: '127.0.0.2' });

    // Assess
    expect(first.slice(0, 3).map((answer) => answer.status)).toEqual([404, 404, 404]);
    const throttled = first[3]!;
    expectRateLimited(throttled);
    expect(throttled.headers['access-control-allow-origin']).toBe('*');
    expect(String(throttled.headers['access-control-expose-headers'])).toContain('Retry-After');
    expect(elsewhere.status).toBe(404);
  });

  it('counts every public form route of the address together, and no route with a key', async () => {
    // Prepare: the address's tokens used up on one public route.
    for (let i = 0; i < 4; i += 1) await send(`${server.url}/forms/${'a'.repeat(24)}`, { localAddress: '127.0.0.3' });

    // Act
    const submission = await send(`${server.url}/forms/${'a'.repeat(24)}/responses`, {
      method: 'POST', localAddress: '127.0.0.3', headers: { 'Content-Type': 'application/json' }, body: '{"answers":{}}',
    });
    const hostRoute = await send(`${server.url}/v1/`, { localAddress: '127.0.0.3', headers: { Authorization: `Bearer ${apiKey}` } });
    const health = await send(`${server.url}/health/`, { localAddress: '127.0.0.3' });

    // Assess
    expectRateLimited(submission);
    expect(hostRoute.status).toBe(200);
    expect(health.status).not.toBe(429);
  });
});
