import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, generateClientSchema } from '../../../bin/build/typescript-client.js';
import { BoxofficeApiError, createBoxofficeClient, retryingFetch, unwrap, type ApiErrorCode } from '../../../clients/typescript/src/index.js';

const BASE_URL = 'http://api.test';

/** A fetch that answers from a script and records each request it was sent. */
function scriptedFetch(answers: (() => Response)[]) {
  const sent: Request[] = [];
  const send = async (request: Request) => {
    sent.push(request);
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    return next();
  };
  return { send, sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
const networkFailure = () => {
  throw new TypeError('fetch failed');
};

describe('clients/typescript/src/schema.ts', () => {
  it('is what `npm run client:generate` writes from the current OpenAPI document', async () => {
    // Act
    const generated = await generateClientSchema();

    // Assess: when this fails, run `npm run client:generate` and commit the result
    expect(readFileSync(CLIENT_SCHEMA_FILE, 'utf8') === generated, 'the generated client is stale: run `npm run client:generate`').toBe(true);
  }, 60_000);
});

describe('createBoxofficeClient', () => {
  it('sends the API key and gives every POST a fresh Idempotency-Key, and other methods none', async () => {
    // Prepare
    const { send, sent } = scriptedFetch([json(201, { data: {} }), json(201, { data: {} }), json(200, { data: {} })]);
    let minted = 0;
    const client = createBoxofficeClient({ baseUrl: `${BASE_URL}/`, apiKey: 'bo_live_test', fetch: send, newIdempotencyKey: () => `key-${(minted += 1)}` });

    // Act
    await client.POST('/v1/forms', { body: { name: 'A', type: 'standalone' } });
    await client.POST('/v1/forms', { body: { name: 'B', type: 'standalone' } });
    await client.GET('/v1/forms/{formId}', { params: { path: { formId: '6740f1a2c3d4e5f601234567' } } });

    // Assess
    expect(sent.map((request) => request.headers.get('idempotency-key'))).toEqual(['key-1', 'key-2', null]);
    expect(sent.every((request) => request.headers.get('authorization') === 'Bearer bo_live_test')).toBe(true);
    expect(sent[2]?.url).toBe(`${BASE_URL}/v1/forms/6740f1a2c3d4e5f601234567`);
  });

  it('keeps an Idempotency-Key the caller set', async () => {
    // Prepare
    const { send, sent } = scriptedFetch([json(201, { data: {} })]);
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: send });

    // Act
    await client.POST('/v1/forms', { body: { name: 'A', type: 'standalone' }, headers: { 'Idempotency-Key': 'mine' } });

    // Assess
    expect(sent[0]?.headers.get('idempotency-key')).toBe('mine');
  });

  it('repeats a POST answered 503 with the same key and body', async () => {
    // Prepare
    const { send, sent } = scriptedFetch([json(503, { error: { code: 'service_unavailable', message: 'Retry.' } }, { 'Retry-After': '0' }), json(201, { data: { id: 'x' } })]);
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: send, retry: { baseDelayMs: 1 } });

    // Act
    const result = await client.POST('/v1/forms', { body: { name: 'A', type: 'standalone' } });

    // Assess
    expect(result.response.status).toBe(201);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.headers.get('idempotency-key')).toBe(sent[0]?.headers.get('idempotency-key'));
    expect(await sent[1]?.text()).toBe(JSON.stringify({ name: 'A', type: 'standalone' }));
  });

  it('gives up after the configured retries and answers the last response', async () => {
    // Prepare
    const { send, sent } = scriptedFetch([json(429, {}), json(429, {}), json(429, { error: { code: 'rate_limited', message: 'Slow down.' } })]);
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: send, retry: { retries: 2, baseDelayMs: 1 } });

    // Act
    const result = await client.GET('/v1/forms');

    // Assess
    expect(sent).toHaveLength(3);
    expect(result.response.status).toBe(429);
    expect(result.error?.error.code).toBe('rate_limited');
  });

  it('never repeats a PATCH, which has no key to make a repeat harmless', async () => {
    // Prepare
    const { send, sent } = scriptedFetch([networkFailure, json(200, {})]);
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: send, retry: { baseDelayMs: 1 } });

    // Act
    const outcome = client.PATCH('/v1/forms/{formId}', { params: { path: { formId: '6740f1a2c3d4e5f601234567' } }, body: { name: 'B' } });

    // Assess
    await expect(outcome).rejects.toThrow('fetch failed');
    expect(sent).toHaveLength(1);
  });

  it('repeats a keyed POST answered 409 with Retry-After (the same key still running), and no other 409', async () => {
    // Prepare
    const running = json(409, { error: { code: 'conflict', message: 'A request with this Idempotency-Key is still in progress.' } }, { 'Retry-After': '0' });
    const taken = json(409, { error: { code: 'conflict', message: 'This email is taken.' } });
    const { send, sent } = scriptedFetch([running, json(201, { data: { id: 'x' } }), taken, json(201, {})]);
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: send, retry: { baseDelayMs: 1 } });

    // Act
    const waited = await client.POST('/v1/contacts', { body: { email: 'ada@example.com' } });
    const refused = await client.POST('/v1/contacts', { body: { email: 'ada@example.com' } });

    // Assess
    expect(waited.response.status).toBe(201);
    expect(sent[1]?.headers.get('idempotency-key')).toBe(sent[0]?.headers.get('idempotency-key'));
    expect(refused.response.status).toBe(409);
    expect(sent).toHaveLength(3);
  });

  it.each([
    ['a DELETE whose answer was lost', 'DELETE', networkFailure],
    ['a PUT whose answer was lost', 'PUT', networkFailure],
    ['a DELETE answered 503', 'DELETE', json(503, { error: { code: 'service_unavailable', message: 'Retry.' } })],
  ] as const)('does not repeat %s: the first attempt may have been applied, and its repeat would answer 404 or 409', async (_name, method, first) => {
    // Prepare
    const { send, sent } = scriptedFetch([first, json(204, {})]);
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: send, retry: { baseDelayMs: 1 } });
    const formId = '6740f1a2c3d4e5f601234567';

    // Act
    const outcome = method === 'DELETE'
      ? client.DELETE('/v1/forms/{formId}/elements/{elementId}', { params: { path: { formId, elementId: formId } } })
      : client.PUT('/v1/forms/{formId}/layout', { params: { path: { formId } }, body: { rows: [], attendeeRowsStart: 0 } });
    const settled = await outcome.then((result) => result.response.status, (error: unknown) => error);

    // Assess
    expect(sent).toHaveLength(1);
    expect(settled).toEqual(first === networkFailure ? expect.any(TypeError) : 503);
  });

  it('repeats a DELETE answered 429: the gateway refused it before anything ran', async () => {
    // Prepare
    const { send, sent } = scriptedFetch([json(429, { error: { code: 'rate_limited', message: 'Slow down.' } }, { 'Retry-After': '0' }), () => new Response(null, { status: 204 })]);
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: send, retry: { baseDelayMs: 1 } });

    // Act
    const result = await client.DELETE('/v1/checkouts/{id}', { params: { path: { id: '6740f1a2c3d4e5f601234567' } } });

    // Assess
    expect(result.response.status).toBe(204);
    expect(sent).toHaveLength(2);
  });

  it('sends a raw body (an image) as its bytes, not as JSON', async () => {
    // Prepare
    const { send, sent } = scriptedFetch([json(201, { data: {} }), json(201, { data: {} })]);
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: send });
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]);

    // Act
    await client.POST('/v1/assets/images', { params: { query: { filename: 'gala.png' } }, body: bytes, headers: { 'Content-Type': 'image/png' } });
    await client.POST('/v1/assets/images', { params: { query: { filename: 'gala.png' } }, body: new Blob([bytes]), headers: { 'Content-Type': 'image/png' } });

    // Assess
    for (const request of sent) {
      expect(new Uint8Array(await request.arrayBuffer())).toEqual(bytes);
      expect(request.headers.get('content-type')).toBe('image/png');
    }
  });

  it('writes the partner listing\'s metaData filters as the document says (form, exploded): ?city=Montreal', async () => {
    // Prepare
    const { send, sent } = scriptedFetch([json(200, { status: 200, data: [], total: 0, page: 0, limit: 20, hasMore: false, nextCursor: null })]);
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: send });

    // Act
    await client.GET('/partner/events', { params: { query: { referral_code: 'DEMO-PARTNER', metaData: { city: 'Montreal', venue: 'Grand Hall' } } } });

    // Assess
    const query = new URL(sent[0]?.url ?? '').searchParams;
    expect(Object.fromEntries(query)).toEqual({ referral_code: 'DEMO-PARTNER', city: 'Montreal', venue: 'Grand Hall' });
  });

  it('does not retry at all with retry: false', async () => {
    // Prepare
    const { send, sent } = scriptedFetch([json(503, {}), json(200, {})]);
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: send, retry: false });

    // Act
    const result = await client.GET('/v1/forms');

    // Assess
    expect(result.response.status).toBe(503);
    expect(sent).toHaveLength(1);
  });
});

describe('retryingFetch', () => {
  it('waits what Retry-After asks, capped by maxDelayMs', async () => {
    // Prepare
    const { send } = scriptedFetch([json(503, {}, { 'Retry-After': '3600' }), json(200, {})]);
    const fetchWithRetry = retryingFetch(send, { retries: 1, maxDelayMs: 20 });
    const started = Date.now();

    // Act
    const response = await fetchWithRetry(new Request(`${BASE_URL}/v1/forms`));

    // Assess: an hour was asked for; the cap (20 ms) was waited instead
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('unwrap', () => {
  it('returns the data of a 2xx answer', async () => {
    // Prepare
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: scriptedFetch([json(200, { api: 'Boxoffice API', version: '1.0.0', docs: 'x' })]).send });

    // Act
    const info = await unwrap(client.GET('/v1'));

    // Assess
    expect(info.version).toBe('1.0.0');
  });

  it('throws the envelope as a BoxofficeApiError with code, details and request id', async () => {
    // Prepare
    const body = { error: { code: 'validation_failed', message: 'Invalid input.', details: [{ path: 'name', message: 'required' }] } };
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: scriptedFetch([json(422, body, { 'X-Request-Id': 'req-1' })]).send });

    // Act
    const error = await unwrap(client.POST('/v1/forms', { body: { name: '', type: 'standalone' } })).catch((thrown: unknown) => thrown);

    // Assess
    expect(error).toBeInstanceOf(BoxofficeApiError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', message: 'Invalid input.', details: [{ path: 'name', message: 'required' }], requestId: 'req-1' });
  });

  it('types code by every code the API has where the operation is not known (a catch block, instanceof)', async () => {
    // Prepare
    const client = createBoxofficeClient({ baseUrl: BASE_URL, fetch: scriptedFetch([json(404, { error: { code: 'not_found', message: 'Form not found.' } })]).send });

    // Act
    let code: ApiErrorCode | 'unknown_error' | undefined;
    try {
      await unwrap(client.GET('/v1/forms/{formId}', { params: { path: { formId: '6740f1a2c3d4e5f601234567' } } }));
    } catch (error) {
      if (!(error instanceof BoxofficeApiError)) throw error;
      code = error.code;
      // @ts-expect-error `code` is a union of the API's codes, not `any`: a number does not fit (checked by `npm run typecheck`)
      const notANumber: number = error.code;
      expect(notANumber).toBe('not_found');
    }

    // Assess
    expect(code).toBe('not_found');
  });

  it('reads the flat error body of the partner listing, and a body in neither format', async () => {
    // Prepare
    const client = createBoxofficeClient({
      baseUrl: BASE_URL,
      fetch: scriptedFetch([json(400, { status: 400, error: 'INVALID_QUERY', message: 'Bad page.' }), () => new Response('<html>Bad gateway</html>', { status: 502 })]).send,
    });

    // Act
    const flat = await unwrap(client.GET('/partner/events', { params: { query: { referral_code: 'DEMO-PARTNER' } } })).catch((thrown: unknown) => thrown);
    const html = await unwrap(client.GET('/v1')).catch((thrown: unknown) => thrown);

    // Assess
    expect(flat).toMatchObject({ status: 400, code: 'invalid_query', message: 'Bad page.' });
    expect(html).toMatchObject({ status: 502, code: 'unknown_error', message: 'HTTP 502' });
  });
});
