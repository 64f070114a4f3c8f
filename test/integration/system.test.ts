import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_ERRORS, METHOD_NOT_ALLOWED, gatewayErrorBody } from '../../shared/http/gateway-responses.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace();
});
afterAll(async () => api.close());

describe('GET /health/', () => {
  it('reports ok and a connected database without a key', async () => {
    // Act
    const response = await api.request('GET', '/health/');
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', db: 'connected', version: '1.0.0' });
    expect(response.body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  });

  it('answers without the trailing slash too', async () => {
    const response = await api.request('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('ok');
  });

  it('counts exactly one DynamoDB call per health check', async () => {
    const response = await api.request('GET', '/health/');
    expect(response.headers.get('x-db-stats')).toMatch(/^calls=1;/);
  });
});

describe('GET /v1/', () => {
  it('is a 401 envelope with only code and message without a key', async () => {
    const response = await api.request('GET', '/v1/');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    expect(response.text).toBe(gatewayErrorBody(GATEWAY_ERRORS.UNAUTHORIZED));
  });

  it('carries the API-wide CORS headers on a gateway error, as the deployed gateway responses do', async () => {
    const response = await api.request('GET', '/v1/', { headers: { Origin: 'https://partner.example' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toBe('X-Request-Id, Retry-After, Idempotent-Replayed');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('returns api, version and the absolute docs URL with a valid key', async () => {
    const response = await api.request('GET', '/v1/', { key: workspace.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ api: 'Boxoffice API', version: '1.0.0', docs: `${api.url}/docs` });
  });

  it('answers /v1 without the trailing slash the same way', async () => {
    const response = await api.request('GET', '/v1', { key: workspace.apiKey });
    expect(response.status).toBe(200);
  });
});

describe('gateway behaviour', () => {
  it('answers an unknown route with the 404 gateway body', async () => {
    const response = await api.request('GET', '/v1/no-such-thing', { key: workspace.apiKey });
    expect(response.status).toBe(404);
    expect(response.text).toBe(gatewayErrorBody(GATEWAY_ERRORS.MISSING_AUTHENTICATION_TOKEN));
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const response = await api.request('DELETE', '/health/');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(response.text).toBe(gatewayErrorBody(METHOD_NOT_ALLOWED));
  });

  it('lets browsers on other sites read a 405 on a public cross-origin path', async () => {
    const response = await api.request('DELETE', '/partner/events?referral_code=X');
    expect(response.status).toBe(405);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('allow')).toBe('GET');
  });

  it('answers a 405 of the partner listing in its flat error body (spec "Partner events errors")', async () => {
    const response = await api.request('POST', '/partner/events?referral_code=X', { body: {} });
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ status: 405, error: 'METHOD_NOT_ALLOWED', message: METHOD_NOT_ALLOWED.message });
    expect(response.headers.get('allow')).toBe('GET');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('allows exactly the path\'s own methods in a CORS preflight', async () => {
    const listing = await api.request('OPTIONS', '/partner/events');
    const submissions = await api.request('OPTIONS', '/forms/6740f1a2c3d4e5f601234567/responses');
    expect(listing.status).toBe(204);
    expect(listing.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect(submissions.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
  });

  it('sends no CORS headers on a 405 of a key-protected path', async () => {
    const response = await api.request('DELETE', '/v1/');
    expect(response.status).toBe(405);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('puts an X-Request-Id on successes and errors alike', async () => {
    const ok = await api.request('GET', '/health/');
    const error = await api.request('GET', '/v1/');
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses bodies above the gateway limit with 413', async () => {
    const response = await api.request('POST', '/v1/', { key: workspace.apiKey, raw: 'x'.repeat(10 * 1024 * 1024 + 1), headers: { 'content-type': 'text/plain' } });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
  });
});
