import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook, type PostOptions } from '../../../shared/webhooks/http-delivery.js';

let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.url ?? '');
    if (request.url === '/redirect') return void response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
    if (request.url === '/big') return void response.writeHead(200).end(Buffer.alloc(200 * 1024, 'x'));
    if (request.url === '/hang') return undefined;
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// The deployed 10 s: a loaded machine must not turn a slow local answer into a timeout. Only the timeout test shortens it.
const local: PostOptions = { timeoutMs: 10_000, maxResponseBytes: 64 * 1024, policy: 'local' };

describe('postWebhook', () => {
  it('POSTs the body with its headers and answers the status', async () => {
    await expect(postWebhook(`${base}/ok`, { 'webhook-id': 'x' }, '{}', local)).resolves.toMatchObject({ statusCode: 204 });
  });

  it('does not follow redirects', async () => {
    // Act
    const result = await postWebhook(`${base}/redirect`, {}, '{}', local);
    // Assess
    expect(result.statusCode).toBe(302);
    expect(seen.filter((url) => url === '/elsewhere')).toEqual([]);
  });

  it('reads at most maxResponseBytes of the answer', async () => {
    const result = await postWebhook(`${base}/big`, {}, '{}', local);
    expect(result.statusCode).toBe(200);
    expect(result.responseBody?.length).toBe(64 * 1024);
  });

  it('gives up after the timeout', async () => {
    // Act
    const started = Date.now();
    const result = await postWebhook(`${base}/hang`, {}, '{}', { ...local, timeoutMs: 500 });
    // Assess
    expect(result).toEqual({ error: 'no answer within 0.5 s' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('refuses loopback deployed without connecting', async () => {
    // Act
    const before = seen.length;
    const result = await postWebhook(`${base}/ok`, {}, '{}', { ...local, policy: 'deployed' });
    // Assess
    expect(result.error).toMatch(/^refused: the URL must use https/);
    expect(seen.length).toBe(before);
  });

  it('re-resolves the host at send time and refuses a name that now points inside (DNS rebinding)', async () => {
    const result = await postWebhook('https://hooks.example.com/x', {}, '{}', {
      ...local, policy: 'deployed', lookup: async () => [{ address: '169.254.169.254', family: 4 }],
    });
    expect(result.error).toMatch(/refused: the URL resolves to a link-local or metadata address/);
  });

  it('connects to the address it checked, not to a second answer of DNS', async () => {
    // Prepare: the name resolves (once) to the test server's loopback address
    let lookups = 0;
    const port = new URL(base).port;
    // Act
    const result = await postWebhook(`http://localhost:${port}/ok`, {}, '{}', { ...local, lookup: async () => { lookups += 1; return [{ address: '127.0.0.1', family: 4 }]; } });
    // Assess
    expect(result.statusCode).toBe(204);
    expect(lookups).toBe(1);
  });

  it('reports a connection failure', async () => {
    const result = await postWebhook('http://127.0.0.1:1/x', {}, '{}', local);
    expect(result.error).toMatch(/connection failed \(ECONNREFUSED\)/);
  });
});
