import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient, ProvisionedThroughputExceededException, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { createGroupHandler } from '../../../shared/http/group-handler.js';
import { runIdempotent } from '../../../shared/http/idempotency.js';
import { operations as systemOperations } from '../../../functions/system/handler.js';
import { apiEvent, context } from '../support/events.js';
import {
  actionOperation, actionRoute, counters, echoOperation, echoRoute, readOperation, readRoute, versionedOperation, versionedRoute,
} from '../support/test-routes.js';

const handler = createGroupHandler('system', systemOperations, { idempotency: runIdempotent, extraRoutes: [echoOperation, readOperation, versionedOperation, actionOperation] });
const thingId = '6740f1a2c3d4e5f601234567';
const ws = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const ddbMock = mockClient(DynamoDBDocumentClient);

beforeEach(() => ddbMock.reset());

function post(body: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }, path = `/v1/test-things/${thingId}`) {
  return handler(apiEvent({ route: echoRoute, path, body, headers, workspaceId: ws }), context());
}

describe('operation layer', () => {
  it('hands validated, typed input to the operation and answers the route status', async () => {
    // Act
    const response = await post(JSON.stringify({ name: 'A', items: [{ amount: 5 }] }), { 'content-type': 'application/json' }, `/v1/test-things/${thingId}?count=3`);
    // Assess
    expect(response.statusCode).toBe(201);
    expect(JSON.parse(response.body).data).toMatchObject({ thingId, count: 3, name: 'A', items: [{ amount: 5 }], workspaceId: ws });
    expect(response.headers?.['X-Request-Id']).toBe('req-1');
  });

  it('answers unparseable JSON with 400 invalid_json', async () => {
    const response = await post('{"name": ');
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: { code: 'invalid_json', message: expect.any(String) } });
  });

  it.each([['an array', '[1,2]'], ['a string', '"hello"'], ['null', 'null']])('answers %s as body with 400 invalid_json', async (_label, body) => {
    const response = await post(body);
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).error.code).toBe('invalid_json');
  });

  it('answers a non-JSON content type with 415', async () => {
    const response = await post('name=A', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(response.statusCode).toBe(415);
    expect(JSON.parse(response.body).error.code).toBe('unsupported_media_type');
  });

  it('answers schema violations with 422 and the offending paths', async () => {
    const response = await post(JSON.stringify({ name: '', items: [{ amount: 1 }, { amount: 1.5 }] }));
    expect(response.statusCode).toBe(422);
    const { error } = JSON.parse(response.body);
    expect(error.code).toBe('validation_failed');
    expect(error.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['items[1].amount', 'name']);
  });

  it('answers a malformed path id with 404, without touching the database', async () => {
    const response = await post(JSON.stringify({ name: 'A' }), { 'content-type': 'application/json' }, '/v1/test-things/NOT-AN-ID');
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body).error.code).toBe('not_found');
    expect(ddbMock.calls()).toHaveLength(0);
  });

  it.each([['out of range', 'count=11'], ['not a number', 'count=abc'], ['unknown', 'colour=red']])('answers a query parameter %s with 400 invalid_query', async (_label, query) => {
    const response = await post(JSON.stringify({ name: 'A' }), { 'content-type': 'application/json' }, `/v1/test-things/${thingId}?${query}`);
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).error.code).toBe('invalid_query');
  });

  it('maps a domain error to its envelope', async () => {
    const response = await post(JSON.stringify({ name: 'A', fail: true }));
    expect(response.statusCode).toBe(422);
    expect(JSON.parse(response.body).error).toEqual({ code: 'validation_failed', message: 'asked to fail', details: [{ path: 'fail', message: 'asked to fail' }] });
  });

  it('answers a known path with an unknown method with 405 and Allow', async () => {
    const response = await handler(apiEvent({ route: echoRoute, method: 'DELETE', path: `/v1/test-things/${thingId}`, workspaceId: ws }), context());
    expect(response.statusCode).toBe(405);
    expect(response.headers?.Allow).toBe('POST, GET, PATCH');
  });

  it('turns DynamoDB throttling after retries into 503 with Retry-After', async () => {
    // Prepare
    ddbMock.on(GetCommand).rejects(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }));
    // Act
    const response = await handler(apiEvent({ route: readRoute, path: `/v1/test-things/${thingId}`, workspaceId: ws }), context());
    // Assess
    expect(response.statusCode).toBe(503);
    expect(response.headers?.['Retry-After']).toBe('1');
    expect(JSON.parse(response.body).error.code).toBe('service_unavailable');
  });

  it('turns a timeout into 503', async () => {
    const timeout = Object.assign(new Error('socket timed out'), { name: 'TimeoutError', $metadata: {} });
    ddbMock.on(GetCommand).rejects(timeout);
    const response = await handler(apiEvent({ route: readRoute, path: `/v1/test-things/${thingId}`, workspaceId: ws }), context());
    expect(response.statusCode).toBe(503);
  });

  it('answers unknown errors with a generic 500 that never echoes internals', async () => {
    ddbMock.on(GetCommand).rejects(new Error('secret table arn:aws:dynamodb:xyz exploded'));
    const response = await handler(apiEvent({ route: readRoute, path: `/v1/test-things/${thingId}`, workspaceId: ws }), context());
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(JSON.parse(response.body)).toEqual({ error: { code: 'internal_error', message: expect.any(String) } });
  });

  it('refuses a key route without an authorizer context with 401', async () => {
    const response = await handler(apiEvent({ route: readRoute, path: `/v1/test-things/${thingId}` }), context());
    expect(response.statusCode).toBe(401);
  });

  it.each([['3', 3], ['"7"', 7], ['W/"12"', 12]])('hands an If-Match of %s to routes that declare ifMatch', async (header, version) => {
    const response = await handler(apiEvent({ route: versionedRoute, path: `/v1/test-things/${thingId}`, body: '{}', headers: { 'content-type': 'application/json', 'if-match': header }, workspaceId: ws }), context());
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).data.ifMatch).toBe(version);
  });

  it('takes If-Match: * as any current version (RFC 9110): no version check', async () => {
    const response = await handler(apiEvent({ route: versionedRoute, path: `/v1/test-things/${thingId}`, body: '{}', headers: { 'content-type': 'application/json', 'if-match': '*' }, workspaceId: ws }), context());
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).data.ifMatch).toBeNull();
  });

  it('answers a malformed If-Match with 422 naming the header', async () => {
    const response = await handler(apiEvent({ route: versionedRoute, path: `/v1/test-things/${thingId}`, body: '{}', headers: { 'content-type': 'application/json', 'if-match': 'yesterday' }, workspaceId: ws }), context());
    expect(response.statusCode).toBe(422);
    expect(JSON.parse(response.body).error.details[0].path).toBe('If-Match');
  });

  it('answers 503 with Retry-After when the idempotency table is throttled', async () => {
    // Prepare: Powertools writes its record with the low-level client
    const idempotencyTable = mockClient(DynamoDBClient);
    idempotencyTable.on(PutItemCommand).rejects(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }));
    try {
      // Act
      const response = await post(JSON.stringify({ name: 'A' }), { 'content-type': 'application/json', 'idempotency-key': 'key-1' });
      // Assess
      expect(response.statusCode).toBe(503);
      expect(response.headers?.['Retry-After']).toBe('1');
      expect(JSON.parse(response.body).error.code).toBe('service_unavailable');
    } finally {
      idempotencyTable.restore();
    }
  });
});

describe('security headers', () => {
  it.each([
    ['a success', () => post(JSON.stringify({ name: 'A' }))],
    ['a validation error', () => post(JSON.stringify({ name: '' }))],
    ['an unknown path (the router\'s 404)', () => handler(apiEvent({ route: echoRoute, path: '/v1/nothing-here', workspaceId: ws }), context())],
    ['a known path with another method (the router\'s 405)', () => handler(apiEvent({ route: echoRoute, method: 'DELETE', path: `/v1/test-things/${thingId}`, workspaceId: ws }), context())],
  ])('sends nosniff and HSTS on %s, keeping the route\'s Cache-Control', async (_label, send) => {
    // Act
    const response = await send();

    // Assess
    expect(response.headers?.['X-Content-Type-Options']).toBe('nosniff');
    expect(response.headers?.['Strict-Transport-Security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('keeps Cache-Control: no-store on operation answers', async () => {
    // Act
    const response = await post(JSON.stringify({ name: 'A' }));

    // Assess
    expect(response.headers?.['Cache-Control']).toBe('no-store');
  });
});

describe('input hygiene at the edge', () => {
  const patch = (body: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    handler(apiEvent({ route: versionedRoute, path: `/v1/test-things/${thingId}`, body, headers, workspaceId: ws }), context());
  const act = (body: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    handler(apiEvent({ route: actionRoute, path: `/v1/test-things/${thingId}/act`, body, headers, workspaceId: ws }), context());

  it.each([['a POST', () => post(undefined)], ['a POST with an empty string', () => post('')], ['a PATCH', () => patch(undefined)], ['a PATCH without Content-Type', () => patch(undefined, {})]])(
    'answers %s whose body is empty with 400 invalid_json',
    async (_label, send) => {
      // Act
      const response = await send();
      // Assess
      expect(response.statusCode).toBe(400);
      expect(JSON.parse(response.body).error).toEqual({ code: 'invalid_json', message: expect.stringMatching(/body is empty.*\{\}/) });
    },
  );

  it('still takes {} as a PATCH that sets no field', async () => {
    const response = await patch('{}');
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['a NUL character', '{"name": "A\\u0000B"}', 'name', /NUL/],
    ['a lone high surrogate', '{"name": "A\\ud800"}', 'name', /lone surrogate/],
    ['a lone low surrogate in an array', '{"name": "A", "items": [{"amount": 1}, "\\udc00"]}', 'items[1]', /lone surrogate/],
    ['a NUL in a field name', '{"name": "A", "items": [{"am\\u0000ount": 1}]}', 'items[0].am\\u0000ount', /field name must not contain the NUL/],
    ['an own __proto__ key', '{"name": "A", "items": [{"__proto__": {"admin": true}}]}', 'items[0].__proto__', /__proto__/],
    ['an own constructor key, which the DynamoDB marshaller reads as the object\'s type', '{"name": "A", "items": [{"constructor": "x"}]}', 'items[0].constructor', /the key "constructor" is not allowed/],
    ['a number DynamoDB cannot store', '{"name": "A", "items": [{"amount": 1e200}]}', 'items[0].amount', /finite number/],
    ['a number beyond Number.MAX_SAFE_INTEGER, which the DynamoDB client refuses', '{"name": "A", "items": [{"amount": -9007199254740992}]}', 'items[0].amount', /magnitude at most 9007199254740991/],
    ['a number that overflows to Infinity', '{"name": "A", "items": [{"amount": 1e400}]}', 'items[0].amount', /finite number/],
  ])('answers a body holding %s with 422 on its path, before the operation runs', async (_label, body, path, message) => {
    // Prepare
    const before = counters.echo;
    // Act
    const response = await post(body);
    // Assess
    expect(response.statusCode).toBe(422);
    const { error } = JSON.parse(response.body);
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ path, message: expect.stringMatching(message) }]);
    expect(counters.echo).toBe(before);
    // the refused characters are never echoed raw
    expect(response.body.includes('\u0000')).toBe(false);
    expect(/\p{Cs}/u.test(response.body)).toBe(false);
  });

  it('accepts well-formed surrogate pairs (emoji) and other control characters', async () => {
    const response = await post(JSON.stringify({ name: 'Party \u{1F389}\t' }));
    expect(response.statusCode).toBe(201);
    expect(JSON.parse(response.body).data.name).toBe('Party \u{1F389}\t');
  });

  it('answers nesting deeper than the limit with 422 instead of overflowing the stack', async () => {
    // Prepare: far deeper than any recursion could survive
    const body = `{"name": "A", "items": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    // Act
    const response = await post(body);
    // Assess
    expect(response.statusCode).toBe(422);
    expect(JSON.parse(response.body).error.details[0].message).toMatch(/nested too deeply/);
  });

  it('answers a query parameter holding NUL with the route\'s query error', async () => {
    const response = await post(JSON.stringify({ name: 'A' }), { 'content-type': 'application/json' }, `/v1/test-things/${thingId}?count=%00`);
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).error).toMatchObject({ code: 'invalid_query', details: [{ path: 'count', message: expect.stringMatching(/NUL/) }] });
  });

  it.each([['a parameter given twice', 'a=1&a=2'], ['an own __proto__ parameter', '__proto__=1'], ['NUL in a value', 'a=%00']])(
    'ignores %s on a route without query parameters, as it ignores one unknown parameter',
    async (_label, query) => {
      // Prepare
      const before = counters.action;
      // Act
      const response = await handler(apiEvent({ route: actionRoute, path: `/v1/test-things/${thingId}/act?${query}`, workspaceId: ws }), context());
      // Assess
      expect(response.statusCode).toBe(200);
      expect(counters.action).toBe(before + 1);
    },
  );

  it.each([['a parameter given twice', 'count=1&count=2', 'count'], ['an own __proto__ parameter', '__proto__=1', '__proto__']])(
    'still refuses %s on a route with query parameters',
    async (_label, query, path) => {
      // Act
      const response = await post(JSON.stringify({ name: 'A' }), { 'content-type': 'application/json' }, `/v1/test-things/${thingId}?${query}`);
      // Assess
      expect(response.statusCode).toBe(400);
      expect(JSON.parse(response.body).error).toMatchObject({ code: 'invalid_query', details: [{ path }] });
    },
  );

  describe('routes that take no body', () => {
    it.each([['no body', undefined], ['an empty object', '{}'], ['an empty object without Content-Type', '{}']])('run with %s', async (_label, body) => {
      const response = await act(body, body === undefined ? {} : { 'content-type': 'application/json' });
      expect(response.statusCode).toBe(200);
    });

    it.each([
      ['fields', '{"amount": 5}', 422, 'validation_failed'],
      ['unparseable JSON', '{"amount": ', 400, 'invalid_json'],
      ['an array', '[]', 400, 'invalid_json'],
    ])('refuse a body with %s instead of ignoring it', async (_label, body, status, code) => {
      // Prepare
      const before = counters.action;
      // Act
      const response = await act(body);
      // Assess
      expect(response.statusCode).toBe(status);
      expect(JSON.parse(response.body).error.code).toBe(code);
      expect(counters.action).toBe(before);
    });

    it('refuse a non-JSON body with 415', async () => {
      const response = await act('amount=5', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(response.statusCode).toBe(415);
    });
  });
});
