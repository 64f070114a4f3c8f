import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import {
  GATEWAY_ERRORS, METHOD_NOT_ALLOWED, corsPreflightHeaders, errorFormatOf, gatewayErrorBody, gatewayErrorHeaders, methodNotAllowedBody, methodNotAllowedHeaders, type GatewayErrorDefinition,
} from '../../shared/http/gateway-responses.js';
import { SECURITY_HEADERS } from '../../shared/http/security-headers.js';
import type { RouteDefinition, RouteGroup } from '../../shared/http/route.js';
import { routeTable } from '../../shared/http/routes.js';
import { createRouteResolver } from './route-resolver.js';
import { lambdaContext, methodArn, requestPath, toAuthorizerEvent, toProxyEvent, type IncomingRequest } from './api-gateway-event.js';
import { policyAllows } from './policy-evaluation.js';
import { emulateColdStart } from './cold-start.js';
import { groupHandlerModules, type GroupHandler } from './group-handlers.js';
import { AuthorizerCache, LOCAL_AUTHORIZER_CACHE_PATH } from './authorizer-cache.js';
import { AUTHORIZER_CACHE_TTL_SECONDS, AUTHORIZER_IDENTITY_HEADER } from '../../functions/authorizer/policy.js';
import { FUNCTION_TIMEOUT_MS } from '../../shared/db/time-budget.js';
import { PortInUseError } from './ports.js';
import { LocalRateLimiter, type LocalRateLimitOptions } from './rate-limiter.js';
import { LocalFirewall } from './firewall.js';
import { countTransactWriteCapacity } from './transact-capacity.js';

type Authorizer = (event: APIGatewayRequestAuthorizerEvent, context: Context) => Promise<APIGatewayAuthorizerResult>;

/** API Gateway's payload limit. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** Local stand-ins for AWS services (`/_local/...`, e.g. S3 receiving a presigned upload) are not behind API Gateway. */
const LOCAL_STAND_IN_PREFIX = '/_local/';
const MAX_STAND_IN_BODY_BYTES = 64 * 1024 * 1024;

/** Local-only routes (e.g. serving blobs that S3 serves in AWS). Return false to fall through. */
export type LocalRoute = (request: IncomingRequest, response: ServerResponse) => Promise<boolean>;

export interface LocalServerOptions {
  port: number;
  host?: string;
  localRoutes?: LocalRoute[];
  /**
   * TTL of the emulated authorizer cache; the deployed stack's by default, so a revoked key keeps working
   * for up to that long here too. 0 turns the cache off (every request runs the authorizer).
   */
  authorizerCacheTtlSeconds?: number;
  /** Clock of the authorizer cache (tests). */
  now?: () => number;
  /**
   * Rate limits, as the deployed usage plans and WAF rule apply them: by default ten times the deployed
   * defaults, and each workspace's own limits as set with the admin CLI.
   */
  rateLimits?: LocalRateLimitOptions;
}

export interface LocalServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const resolveRoute = createRouteResolver(routeTable);

const handlerCache = new Map<RouteGroup, Promise<GroupHandler>>();

/** Each group's handler module is `functions/<group>/handler.ts`, exactly what CDK bundles. */
function groupHandler(group: RouteGroup): Promise<GroupHandler> {
  let loaded = handlerCache.get(group);
  if (!loaded) {
    loaded = groupHandlerModules[group]().then((module) => module.handler);
    handlerCache.set(group, loaded);
  }
  return loaded;
}

let authorizerModule: Promise<Authorizer> | undefined;
function authorizer(): Promise<Authorizer> {
  authorizerModule ??= import('../../functions/authorizer/handler.js').then((module: { handler: Authorizer }) => module.handler);
  return authorizerModule;
}

/**
 * A gateway response as the deployed API answers it: the definition's status (the catch-all types keep
 * `status`, the status of the error they stand in for), its body, and the API-wide CORS headers.
 */
function sendGatewayError(response: ServerResponse, definition: GatewayErrorDefinition, requestId: string, status = 500): void {
  response.writeHead(definition.statusCode ?? status, { 'Content-Type': 'application/json', 'X-Request-Id': requestId, ...gatewayErrorHeaders(definition) });
  response.end(gatewayErrorBody(definition));
}

/** 429 `rate_limited`, as the gateway's THROTTLED response (or WAF's) reads, with the real wait. */
function sendRateLimited(response: ServerResponse, requestId: string, retryAfterSeconds: number): void {
  const definition = GATEWAY_ERRORS.THROTTLED;
  response.writeHead(definition.statusCode, {
    'Content-Type': 'application/json', 'X-Request-Id': requestId, ...gatewayErrorHeaders(definition), 'Retry-After': String(retryAfterSeconds),
  });
  response.end(gatewayErrorBody(definition));
}

/** 405 as the path's MOCK `ANY` method answers it deployed: in the error format of the path's routes. */
function sendMethodNotAllowed(response: ServerResponse, requestId: string, routes: readonly RouteDefinition[]): void {
  const allowed = routes.map((route) => route.method);
  const cors = routes.some((route) => route.cors);
  response.writeHead(METHOD_NOT_ALLOWED.statusCode ?? 405, { ...methodNotAllowedHeaders(allowed, cors), 'X-Request-Id': requestId });
  response.end(methodNotAllowedBody(errorFormatOf(routes)));
}

/**
 * Requests Node's HTTP parser refuses before any handler runs (Node would answer them with an empty
 * body): the status Node would send, in the envelope, with `bad_request`, the code API Gateway's catch-all
 * answers deployed for a refusal of its own (`DEFAULT_4XX`), so that every code is one the document lists.
 * 431 is a request line and headers above Node's 16 KiB limit (a 16 KB URL); deployed, API Gateway's own
 * limits answer instead.
 */
export const CLIENT_ERRORS: Readonly<Record<string, { status: number; code: 'bad_request'; message: string }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'bad_request', message: 'The request line and headers are too large: together they may take at most 16 KiB.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'bad_request', message: 'The request was not received in time.' },
};
export const BAD_REQUEST = { status: 400, code: 'bad_request', message: 'The request is not well-formed HTTP.' } as const;

function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A connection that is already gone has nobody to answer.
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const answer = CLIENT_ERRORS[error.code ?? ''] ?? BAD_REQUEST;
  const body = JSON.stringify({ error: { code: answer.code, message: answer.message } });
  // Every answer carries a request id (API.md), these too, though no handler ever saw the request.
  const headers = { ...SECURITY_HEADERS, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'X-Request-Id': randomUUID(), Connection: 'close' };
  socket.end([
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    body,
  ].join('\r\n'));
}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/**
 * Runs the real authorizer the way API Gateway does, through its result cache (keyed by the identity
 * source, the Authorization header); returns the authorizer context, or the gateway error.
 */
async function authorize(event: APIGatewayProxyEvent, cache: AuthorizerCache): Promise<{ context: Record<string, string>; usageIdentifierKey?: string } | { error: GatewayErrorDefinition }> {
  const identity = event.headers[AUTHORIZER_IDENTITY_HEADER.toLowerCase()];
  // API Gateway answers a request without the identity source itself, without calling the authorizer.
  if (identity === undefined || identity === '') return { error: GATEWAY_ERRORS.UNAUTHORIZED };
  let result = cache.get(identity);
  if (!result) {
    try {
      // Its own context: the authorizer's deployed timeout bounds its time budget, as in AWS.
      result = await (await authorizer())(toAuthorizerEvent(event), lambdaContext('boxoffice-authorizer', event.requestContext.requestId, FUNCTION_TIMEOUT_MS.authorizer));
    } catch (error) {
      return { error: (error as Error).message === 'Unauthorized' ? GATEWAY_ERRORS.UNAUTHORIZED : GATEWAY_ERRORS.AUTHORIZER_FAILURE };
    }
    cache.set(identity, result);
  }
  if (!policyAllows(result, methodArn(event.httpMethod, event.path))) return { error: GATEWAY_ERRORS.ACCESS_DENIED };
  const context: Record<string, string> = { principalId: result.principalId };
  for (const [key, value] of Object.entries(result.context ?? {})) context[key] = String(value);
  return { context, ...(result.usageIdentifierKey ? { usageIdentifierKey: result.usageIdentifierKey } : {}) };
}

function writeResult(response: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name] = values.map(String);
  response.writeHead(result.statusCode, headers);
  response.end(result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined);
}

/** The request's URL, or undefined when its Host header cannot be part of one (`Host: a b`, an empty one). */
function requestUrl(request: IncomingMessage): URL | undefined {
  try {
    return new URL(request.url ?? '/', `http://${request.headers.host || '127.0.0.1'}`);
  } catch {
    return undefined;
  }
}

function sendBadRequest(response: ServerResponse, requestId: string): void {
  const body = JSON.stringify({ error: { code: BAD_REQUEST.code, message: BAD_REQUEST.message } });
  response.writeHead(BAD_REQUEST.status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'X-Request-Id': requestId });
  response.end(body);
}

async function handle(request: IncomingMessage, response: ServerResponse, options: LocalServerOptions, cache: AuthorizerCache, limiter: LocalRateLimiter, firewall: LocalFirewall): Promise<void> {
  const requestId = randomUUID();
  // Every answer, the server's own (local stand-ins, errors, the demo page) included; explicit headers still win.
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
  response.setHeader('X-Request-Id', requestId);
  const url = requestUrl(request);
  if (!url) return sendBadRequest(response, requestId);
  // Routed as sent, like API Gateway: `url.pathname` has its dot segments (`%2e%2e` too) resolved.
  const path = requestPath(request.url ?? '/');
  const method = (request.method ?? 'GET').toUpperCase();
  const standIn = path.startsWith(LOCAL_STAND_IN_PREFIX);
  const body = await readBody(request, standIn ? MAX_STAND_IN_BODY_BYTES : MAX_BODY_BYTES);
  const sourceIp = request.socket.remoteAddress ?? '127.0.0.1';
  // Deployed, the stage's AWS WAF web ACL answers these before API Gateway sees the request (lib/api-firewall.ts).
  const verdict = standIn ? undefined : firewall.check({ method, path, sourceIp, contentLength: request.headers['content-length'] });
  if (verdict?.kind === 'rate_limited') return sendRateLimited(response, requestId, verdict.retryAfterSeconds);
  if (verdict?.kind === 'edge_rule') {
    // Deployed, AWS WAF answers these with fixed headers: it has no request id to send, so neither do we.
    response.removeHeader('X-Request-Id');
    response.writeHead(verdict.rule.status, { ...verdict.rule.headers, 'Content-Type': 'application/json' });
    return void response.end(verdict.rule.body);
  }
  if (body === undefined) return sendGatewayError(response, GATEWAY_ERRORS.REQUEST_TOO_LARGE, requestId);
  const incoming: IncomingRequest = { method, url, path, headers: request.headers, body, sourceIp, requestId };

  const samePath = resolveRoute(path);
  if (samePath.length === 0) {
    if (path === LOCAL_AUTHORIZER_CACHE_PATH && method === 'DELETE') {
      cache.clear();
      response.writeHead(204);
      return void response.end();
    }
    for (const localRoute of options.localRoutes ?? []) {
      if (await localRoute(incoming, response)) return;
    }
    return sendGatewayError(response, GATEWAY_ERRORS.MISSING_AUTHENTICATION_TOKEN, requestId);
  }
  if (method === 'OPTIONS' && samePath.some((candidate) => candidate.route.cors)) {
    response.writeHead(204, { ...corsPreflightHeaders(samePath.map((candidate) => candidate.route.method)), 'X-Request-Id': requestId });
    return void response.end();
  }
  const match = samePath.find((candidate) => candidate.route.method === method);
  if (!match) {
    return sendMethodNotAllowed(response, requestId, samePath.map((candidate) => candidate.route));
  }

  const event = toProxyEvent(incoming, match.route, { ...match.params }, null);
  if (match.route.auth === 'key') {
    const outcome = await authorize(event, cache);
    if ('error' in outcome) return sendGatewayError(response, outcome.error, requestId);
    // Key routes require the usage plan key (apiKeyRequired): none means no plan, as deployed.
    if (!outcome.usageIdentifierKey) return sendGatewayError(response, GATEWAY_ERRORS.INVALID_API_KEY, requestId);
    // The usage plan's throttle: the workspace's bucket, whichever of its keys was used.
    const workspaceWait = limiter.checkWorkspace(outcome.context.workspaceId ?? outcome.usageIdentifierKey);
    if (workspaceWait !== undefined) return sendRateLimited(response, requestId, workspaceWait);
    event.requestContext.authorizer = outcome.context;
  }
  try {
    const handler = await groupHandler(match.route.group);
    const functionName = `boxoffice-${match.route.group}`;
    emulateColdStart(functionName);
    writeResult(response, await handler(event, lambdaContext(functionName, requestId)));
  } catch (error) {
    // API Gateway answers a failed Lambda invocation with 502 and the DEFAULT_5XX body.
    console.error('Lambda handler failed', error);
    sendGatewayError(response, GATEWAY_ERRORS.DEFAULT_5XX, requestId, 502);
  }
}

/**
 * Serves the route table over HTTP exactly as the deployed API Gateway does: the real authorizer,
 * the real group handlers, the same gateway error bodies. The environment (TABLE_NAME,
 * DYNAMODB_ENDPOINT, ...) must be set before the first request loads the handlers.
 */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  // Loaded now, after the environment is set (the client reads it when created): DynamoDB Local's
  // transactional write capacity is corrected in X-Db-Stats (transact-capacity.ts).
  countTransactWriteCapacity((await import('../../shared/db/client.js')).dynamoClient);
  const cache = new AuthorizerCache(options.authorizerCacheTtlSeconds ?? AUTHORIZER_CACHE_TTL_SECONDS, options.now);
  const limiter = new LocalRateLimiter(options.rateLimits);
  const firewall = new LocalFirewall(limiter);
  const server = createServer((request, response) => {
    handle(request, response, options, cache, limiter, firewall).catch((error: unknown) => {
      console.error('Local server failure', error);
      if (!response.headersSent) sendGatewayError(response, GATEWAY_ERRORS.DEFAULT_5XX, 'local');
      else response.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new PortInUseError(options.port, 'the API', 'PORT') : error));
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
