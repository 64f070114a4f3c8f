import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../shared/http/security-headers.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Edges');
});

afterAll(async () => {
  await api?.close();
});

/** Sends bytes on a raw connection and resolves with everything the server answered. */
function rawExchange(request: string): Promise<string> {
  const { port } = new URL(api.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => { answer += chunk.toString(); });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(request);
  });
}

function parseRaw(answer: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => {
    const at = line.indexOf(':');
    return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()];
  }));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('security headers on every answer of the local server', () => {
  it.each([
    ['a handler success', 'GET', '/health/', {}, 200],
    ['a key route without a key (gateway 401)', 'GET', '/v1/forms', {}, 401],
    ['an unknown path (gateway 404)', 'GET', '/nothing-here', {}, 404],
    ['a known path with another method (405)', 'DELETE', '/partner/events', {}, 405],
    ['a CORS preflight', 'OPTIONS', '/partner/events', {}, 204],
    ['an unknown /_local path', 'GET', '/_local/nothing', {}, 404],
    ['an unknown local blob', 'GET', '/_local/blobs/images/aaaaaaaaaaaaaaaaaaaaaaaa.png', {}, 404],
    ['the widget demo page', 'GET', '/widget/demo', {}, 200],
  ])('sends nosniff, HSTS and a request id on %s', async (_label, method, path, headers, status) => {
    // Act
    const response = await api.request(method, path, { headers });

    // Assess
    expect(response.status).toBe(status);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers.get(name), name).toBe(value);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends them on answers of a key route too', async () => {
    // Act
    const response = await api.request('GET', '/v1/forms', { key: workspace.apiKey });

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('errors the local server answers itself', () => {
  it('answers a 16 KB URL with 431 in the envelope, code bad_request (a code the document lists)', async () => {
    // Act
    const response = await api.request('GET', `/v1/forms?name=${'a'.repeat(16 * 1024)}`, { key: workspace.apiKey });

    // Assess
    expect(response.status).toBe(431);
    expect(response.body).toEqual({ error: { code: 'bad_request', message: expect.stringContaining('16 KiB') } });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each(['x:notaport', 'a b', '[::1'])('answers a Host header no URL can hold (%s) with 400 bad_request, not a 500', async (host) => {
    // Act
    const answer = parseRaw(await rawExchange(`GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));

    // Assess
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a query parameter named __proto__ instead of dropping it unchecked', async () => {
    // Act
    const listed = await api.request('GET', '/v1/webhook-endpoints?__proto__=x', { key: workspace.apiKey });
    const partner = await api.request('GET', '/partner/events?referral_code=NOPE&__proto__=x');

    // Assess
    expect(listed.status).toBe(400);
    expect(listed.body.error).toMatchObject({ code: 'invalid_query', details: [{ path: '__proto__' }] });
    expect(partner.status).toBe(400);
    expect(partner.body).toMatchObject({ status: 400, error: 'INVALID_QUERY' });
  });

  it('answers a request that is not HTTP with 400 in the envelope', async () => {
    // Act
    const answer = parseRaw(await rawExchange('HELLO THERE\r\n\r\n'));

    // Assess
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each(['/_local/nothing', '/_local/blobs/not-a-key'])('answers the unknown local path %s with 404 not_found in the envelope', async (path) => {
    // Act
    const response = await api.request('GET', path);

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });
});

describe('dot segments in the path', () => {
  /** A request whose target is sent byte for byte (fetch would resolve its dot segments first). */
  async function rawRequest(method: string, target: string, body?: unknown): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const payload = body === undefined ? '' : JSON.stringify(body);
    const answer = parseRaw(await rawExchange([
      `${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${workspace.apiKey}`, 'Connection: close',
      ...(payload ? ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(payload)}`] : []), '', payload,
    ].join('\r\n')));
    // A chunked body: each chunk is its size in hex, CRLF, the bytes, CRLF (the bodies here are ASCII).
    let text = answer.body;
    if (answer.headers['transfer-encoding'] === 'chunked') {
      const parts: string[] = [];
      for (let at = 0, size = 0; (size = parseInt(text.slice(at, text.indexOf('\r\n', at)), 16)) > 0;) {
        const start = text.indexOf('\r\n', at) + 2;
        parts.push(text.slice(start, start + size));
        at = start + size + 2;
      }
      text = parts.join('');
    }
    return { status: answer.status, body: text ? JSON.parse(text) : undefined };
  }

  it.each(['%2e%2e', '%2E%2E', '.%2e', '%2e.', '..', '.', '%2e'])('routes the segment %s as a path parameter, never as a step up (404 not_found)', async (dots) => {
    // Prepare
    const form = (await api.request('POST', '/v1/forms', { key: workspace.apiKey, body: { name: 'Dots', type: 'standalone' } })).body.data;
    const element = (await api.request('POST', `/v1/forms/${form.id}/elements`, { key: workspace.apiKey, body: { type: 'Text', prompt: 'Name' } })).body.data;

    // Act
    const deleted = await rawRequest('DELETE', `/v1/forms/${form.id}/elements/${element.id}/logic-rules/${dots}`);
    const edited = await rawRequest('PATCH', `/v1/forms/${form.id}/elements/${dots}`, { name: 'Renamed' });
    const read = await rawRequest('GET', `/v1/forms/${dots}`);
    const climbed = await rawRequest('GET', `/v1/nothing/${dots}/forms`);

    // Assess
    for (const answer of [deleted, edited, read, climbed]) expect(answer).toEqual({ status: 404, body: { error: { code: 'not_found', message: expect.any(String) } } });
    const after = (await api.request('GET', `/v1/forms/${form.id}`, { key: workspace.apiKey })).body.data;
    expect(after.name).toBe('Dots');
    expect(after.elements.map((candidate: { id: string }) => candidate.id)).toEqual([element.id]);
  });
});

describe('the query string of a route without query parameters', () => {
  it.each(['/health/', '/v1/', '/openapi.json', '/docs', '/widget/v1/boxoffice.js'])('is ignored on %s, repeated, __proto__ and NUL alike (no 400)', async (path) => {
    // Act
    const answers = await Promise.all(['a=1&a=2', '__proto__=1', 'a=%00'].map((query) => api.request('GET', `${path}?${query}`, { key: workspace.apiKey })));

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
  });
});

describe('the local stand-ins for S3', () => {
  it('answer a malformed percent-encoding in the key as an unknown key, never a 500', async () => {
    // Act
    const read = await fetch(`${api.url}/_local/blobs/%zz`);
    const upload = await fetch(`${api.url}/_local/uploads/%zz`, { method: 'PUT', body: 'x' });

    // Assess
    expect(read.status).toBe(404);
    expect(upload.status).toBe(400);
    expect(await upload.text()).toContain('<Code>InvalidArgument</Code>');
  });
});
