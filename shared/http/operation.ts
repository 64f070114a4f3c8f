import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import * as z from 'zod';
import {
  InvalidJsonError, InvalidQueryError, NotFoundError, PayloadTooLargeError, UnauthorizedError,
  UnsupportedMediaTypeError, ValidationError, type ErrorDetail,
} from '../errors.js';
import type { KeyScope } from '../auth/api-keys.js';
import { toMiddyHttpError } from './error-mapping.js';
import { parseIfMatch } from './if-match.js';
import { parseContentType } from './media-type.js';
import { corsHeaders } from './gateway-responses.js';
import { SECURITY_HEADERS } from './security-headers.js';
import type { IdempotentRequest, StoredResponse } from './idempotency.js';
import { takesIdempotencyKey, takesNoBody, type RouteDefinition } from './route.js';
import { formatIssuePath, issuesToDetails } from '../model/issues.js';
import { once } from '../model/lazy-schema.js';
import { jsonInputProblems, queryInputProblems } from './input-hygiene.js';

/** What the authorizer resolved the API key to. */
export interface AuthContext {
  workspaceId: string;
  keyId: string;
  scope: KeyScope;
}

// Optional route fields are `Schema | undefined`: the schema, when declared, decides the type.
type Out<T> = [NonNullable<T>] extends [z.ZodType] ? ([NonNullable<T>] extends [never] ? undefined : z.output<NonNullable<T>>) : undefined;

/** Validated, typed input handed to an operation. */
export interface OperationInput<R extends RouteDefinition> {
  params: Out<R['params']>;
  query: Out<R['query']>;
  body: Out<R['body']>;
  /** The raw bytes for routes with `rawBody`. */
  rawBody: R['rawBody'] extends object ? Buffer : undefined;
  /** Workspace of the API key; every data access of a key route is scoped by it. */
  workspaceId: R['auth'] extends 'key' ? string : undefined;
  auth: R['auth'] extends 'key' ? AuthContext : undefined;
  /** The `If-Match` version, for routes that declare `ifMatch`; undefined when the header is absent. */
  ifMatch: number | undefined;
  /** Lower-cased request headers. */
  headers: Record<string, string | undefined>;
  requestId: string;
  /** Absolute URL of the API root as the client called it (scheme, host and stage prefix). */
  baseUrl: string;
  event: APIGatewayProxyEvent;
}

/** A response with a status, headers or body encoding other than the route's default. */
export class HttpResult {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    readonly isBase64Encoded = false,
  ) {}
}

export type OperationImpl<R extends RouteDefinition> = (input: OperationInput<R>) => Promise<unknown>;

export interface Operation {
  readonly route: RouteDefinition;
  readonly handler: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
}

/** `runIdempotent` of `shared/http/idempotency.ts`: handed in by the groups that have keyed POSTs. */
export type IdempotencyRunner = (request: IdempotentRequest, context: Context, work: () => Promise<StoredResponse>) => Promise<StoredResponse>;

let idempotencyRunner: IdempotencyRunner | undefined;

/**
 * Installs the Idempotency-Key implementation. Only groups with keyed POST routes call this (through
 * `createGroupHandler`), so Powertools Idempotency and jmespath are bundled into those functions only.
 */
export function provideIdempotency(runner: IdempotencyRunner): void {
  idempotencyRunner = runner;
}

/** POST routes honour `Idempotency-Key` unless they opt out. */
export function fingerprintOf(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

const MAX_JSON_BYTES = 1024 * 1024;
const JSON_TYPE = /^application\/(.+\+)?json$/;

/**
 * A JSON media type (`application/json`, `application/*+json`) whose `charset`, if any, is UTF-8:
 * JSON is UTF-8 (RFC 8259), and a body declared in another charset would be read as UTF-8 and mangled.
 */
function isJsonContentType(value: string): boolean {
  const { type, charset } = parseContentType(value);
  return JSON_TYPE.test(type) && (charset === undefined || charset === 'utf-8');
}

export { formatIssuePath, issuesToDetails };

function parseWith<T extends z.ZodType>(schema: T, value: unknown, onError: (error: z.ZodError) => Error): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw onError(result.error);
  return result.data;
}

export function authContextOf(event: APIGatewayProxyEvent): AuthContext | undefined {
  const authorizer = event.requestContext.authorizer as Record<string, unknown> | null | undefined;
  const workspaceId = authorizer?.workspaceId;
  const keyId = authorizer?.keyId;
  const scope = authorizer?.scope;
  if (typeof workspaceId !== 'string' || typeof keyId !== 'string' || (scope !== 'read_write' && scope !== 'read_only')) {
    return undefined;
  }
  return { workspaceId, keyId, scope };
}

/** Absolute API root URL from the request: `https://host/stage` deployed, `http://127.0.0.1:3000` locally. */
export function baseUrlOf(event: APIGatewayProxyEvent): string {
  const headers = event.headers ?? {};
  const host = headers.host ?? headers.Host ?? event.requestContext.domainName ?? 'localhost';
  const proto = headers['x-forwarded-proto'] ?? headers['X-Forwarded-Proto'] ?? 'https';
  const fullPath = event.requestContext.path ?? event.path;
  const stagePrefix = fullPath.endsWith(event.path) ? fullPath.slice(0, fullPath.length - event.path.length) : '';
  return `${proto}://${host}${stagePrefix}`;
}

function jsonBodyGuard(route: RouteDefinition): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const event = request.event;
      const headers = event.headers ?? {};
      const raw = event.body ?? '';
      const contentType = headers['content-type'];
      // The JSON parser insists on a JSON content type; a body without a Content-Type header is read
      // as JSON, any other declared type is refused. An empty body is no JSON object: `{}` says "no field".
      event.headers = { ...headers, 'content-type': 'application/json' };
      if (raw === '' || (event.isBase64Encoded && Buffer.from(raw, 'base64').length === 0)) {
        throw new InvalidJsonError(`The request body is empty: ${route.method} ${route.path} takes a JSON object (send {} to set no field).`);
      }
      if (contentType !== undefined && !isJsonContentType(contentType)) {
        throw new UnsupportedMediaTypeError(`${route.method} ${route.path} takes application/json (UTF-8).`);
      }
      const size = event.isBase64Encoded ? Buffer.from(raw, 'base64').length : Buffer.byteLength(raw);
      if (size > MAX_JSON_BYTES) throw new PayloadTooLargeError(`JSON bodies are limited to ${MAX_JSON_BYTES} bytes.`);
    },
  };
}

/**
 * Routes that take no body (finalize, void, rotate-secret, deletes...) accept none, or `{}`; anything
 * else is refused like a bad body elsewhere, rather than ignored: a client that sends fields expects
 * them to matter.
 */
function noBodyGuard(route: RouteDefinition): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const event = request.event;
      const bytes = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
      if (bytes.length === 0) return;
      const contentType = event.headers?.['content-type'];
      if (contentType !== undefined && !isJsonContentType(contentType)) {
        throw new UnsupportedMediaTypeError(`${route.method} ${route.path} takes no body (or the JSON object {}).`);
      }
      if (bytes.length > MAX_JSON_BYTES) throw new PayloadTooLargeError(`JSON bodies are limited to ${MAX_JSON_BYTES} bytes.`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch {
        throw new InvalidJsonError('The request body is not valid JSON.');
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidJsonError();
      const fields = Object.keys(parsed);
      if (fields.length > 0) {
        throw new ValidationError(fields.slice(0, 20).map((field) => ({ path: field, message: `unknown field: ${route.method} ${route.path} takes no body fields` })));
      }
    },
  };
}

/** Turns every error of the operation into the route's error format; http-error-handler renders it. */
function errorMapper(route: RouteDefinition): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: (request) => {
      const error = request.error as Error & { cause?: { package?: string } };
      const cause = error.cause?.package === '@middy/http-json-body-parser' ? new InvalidJsonError('The request body is not valid JSON.') : error;
      request.error = toMiddyHttpError(cause, route.errorFormat);
    },
  };
}

/** Adds per-route headers (security, CORS, `Cache-Control` unless the operation sets it) to every response, success or error. */
function routeHeaders(route: RouteDefinition): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const apply = (request: middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    const response = request.response;
    if (!response) return;
    response.headers = {
      ...SECURITY_HEADERS,
      ...(route.cors ? corsHeaders() : {}),
      'Cache-Control': 'no-store',
      ...response.headers,
    };
  };
  return { after: apply, onError: apply };
}

function buildResponse(route: RouteDefinition, result: unknown): StoredResponse {
  if (result instanceof HttpResult) {
    const body = typeof result.body === 'string' ? result.body : result.body === undefined ? '' : JSON.stringify(result.body);
    const headers = typeof result.body === 'string' || result.body === undefined ? result.headers : { 'Content-Type': 'application/json; charset=utf-8', ...result.headers };
    return { statusCode: result.statusCode, headers, body, isBase64Encoded: result.isBase64Encoded };
  }
  if (route.success.status === 204) return { statusCode: 204, headers: {}, body: '' };
  if (route.success.contentTypes && typeof result === 'string') {
    return { statusCode: route.success.status, headers: { 'Content-Type': route.success.contentTypes[0] }, body: result };
  }
  return { statusCode: route.success.status, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(result) };
}

function readRawBody(route: RouteDefinition, event: APIGatewayProxyEvent): Buffer {
  const spec = route.rawBody as NonNullable<RouteDefinition['rawBody']>;
  const contentType = parseContentType(event.headers?.['content-type']).type;
  if (!spec.contentTypes.includes(contentType)) {
    throw new UnsupportedMediaTypeError(`Content-Type must be one of: ${spec.contentTypes.join(', ')}.`);
  }
  const bytes = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  if (bytes.length > spec.maxBytes) throw new PayloadTooLargeError(spec.tooLargeMessage ?? `The body is limited to ${spec.maxBytes} bytes.`);
  return bytes;
}

/**
 * Binds an implementation to its route: validation at the edge (path -> 404, query -> 400/422, body
 * -> 422), JSON parsing (400 `invalid_json`), Idempotency-Key on POST, and the error envelope.
 * The implementation receives typed input and returns the response body (or an HttpResult).
 */
export function implement<R extends RouteDefinition>(route: R, impl: OperationImpl<R>): Operation {
  const core = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const auth = authContextOf(event);
    if (route.auth === 'key' && !auth) throw new UnauthorizedError();
    const params = route.params ? parseWith(route.params, event.pathParameters ?? {}, () => new NotFoundError()) : undefined;
    const queryError = (details: ErrorDetail[]) => (route.queryErrorCode === 'validation_failed' ? new ValidationError(details) : new InvalidQueryError(details));
    // A route without query parameters ignores its query string entirely (a repeated cache-buster on a
    // health probe or the widget script is no error: the document lists no 400 for such a route).
    const rawQuery = route.query ? event.queryStringParameters ?? {} : {};
    if (route.query) {
      const queryProblems = queryInputProblems(event.queryStringParameters, event.multiValueQueryStringParameters);
      if (queryProblems.length > 0) throw queryError(queryProblems);
    }
    const query = route.query ? parseWith(route.query, rawQuery, (error) => queryError(issuesToDetails(error))) : undefined;
    let body: unknown;
    if (route.body) {
      const parsed: unknown = event.body;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidJsonError();
      const problems = jsonInputProblems(parsed);
      if (problems.length > 0) throw new ValidationError(problems);
      body = parseWith(route.body, parsed, (error) => new ValidationError(issuesToDetails(error)));
    }
    const rawBody = route.rawBody ? readRawBody(route, event) : undefined;
    const headers = (event.headers ?? {}) as Record<string, string | undefined>;
    const ifMatch = route.ifMatch ? parseIfMatch(headers) : undefined;
    const input = {
      params, query, body, rawBody, auth, workspaceId: auth?.workspaceId, headers, ifMatch,
      requestId: event.requestContext.requestId, baseUrl: baseUrlOf(event), event,
    } as OperationInput<R>;
    const work = async () => buildResponse(route, await impl(input).catch((error: unknown) => {
      // A query problem found past the edge (a cursor of another list) keeps the route's query status.
      if (error instanceof InvalidQueryError && route.queryErrorCode === 'validation_failed') throw new ValidationError(error.details, error.message);
      throw error;
    }));
    const idempotencyKey = headers['idempotency-key'];
    if (takesIdempotencyKey(route) && idempotencyKey !== undefined) {
      // createGroupHandler refuses to build a group with keyed POSTs and no runner: this cannot happen.
      if (!idempotencyRunner) throw new Error(`No idempotency runner for ${route.operation}`);
      return idempotencyRunner(
        {
          key: idempotencyKey,
          // A public request has no workspace: its key is scoped to the resource it names (the form), so
          // respondents of different workspaces' forms never share, or block, one another's keys.
          scope: auth?.workspaceId ?? `public:${JSON.stringify(event.pathParameters ?? {})}`,
          operation: route.operation,
          fingerprint: fingerprintOf({ operation: route.operation, params: event.pathParameters ?? {}, query: rawQuery, body: rawBody ? fingerprintOf(rawBody.toString('base64')) : body }),
          ...(route.responseHoldsSecret ? { sealResponse: true } : {}),
        },
        context,
        work,
      );
    }
    return work();
  };

  const buildChain = (): Operation['handler'] => {
    const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult>(core)
      .use(routeHeaders(route))
      .use(httpErrorHandler({ logger: false }))
      .use(errorMapper(route));
    if (route.body) chain.use(jsonBodyGuard(route)).use(httpJsonBodyParser());
    else if (takesNoBody(route)) chain.use(noBodyGuard(route));
    return chain as unknown as Operation['handler'];
  };
  // The middleware chain is built on the route's first request, not at module load (issue 16, P1): a
  // cold start pays for the routes it serves, not for every route of the group.
  const chain = once(buildChain);
  return { route, handler: (event, context) => chain()(event, context) };
}
