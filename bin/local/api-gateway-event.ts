import type { IncomingHttpHeaders } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { BINARY_MEDIA_TYPES } from '../../shared/http/gateway-responses.js';
import { parseContentType } from '../../shared/http/media-type.js';
import type { RouteDefinition } from '../../shared/http/route.js';
import { FUNCTION_TIMEOUT_MS } from '../../shared/db/time-budget.js';

export const LOCAL_STAGE = 'local';
const LOCAL_API_ARN = 'arn:aws:execute-api:local:000000000000:local';

function single(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? (value[value.length - 1] as string) : value;
  }
  return out;
}

function multi(headers: IncomingHttpHeaders): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value : [value];
  }
  return out;
}

function query(url: URL): { single: Record<string, string> | null; multi: Record<string, string[]> | null } {
  const keys = [...new Set(url.searchParams.keys())];
  if (keys.length === 0) return { single: null, multi: null };
  // Own properties whatever the name, as API Gateway's JSON event has them: an assignment of
  // `__proto__` would set the prototype instead, and the parameter would vanish unchecked.
  const entries = keys.map((key) => [key, url.searchParams.getAll(key)] as const);
  return {
    single: Object.fromEntries(entries.map(([key, values]) => [key, values[values.length - 1] as string])),
    multi: Object.fromEntries(entries),
  };
}

/** Same rule as API Gateway with `binaryMediaTypes`: those content types arrive base64-encoded. */
export function isBinaryContentType(contentType: string | undefined): boolean {
  return (BINARY_MEDIA_TYPES as readonly string[]).includes(parseContentType(contentType).type);
}

function requestTime(now: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(now.getUTCDate())}/${months[now.getUTCMonth()]}/${now.getUTCFullYear()}:${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())} +0000`;
}

/** The absolute form of a request target (`http://host/path`): its scheme and authority. */
const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i;
/**
 * Characters a URL path carries percent-encoded (the WHATWG path set; Node refuses the other ones),
 * and `\`, which the URL parser would read as `/`.
 */
// eslint-disable-next-line no-control-regex
const PATH_ESCAPED = /[\x00-\x20"<>\\`{}\x7f]/g;

/**
 * The path of a request target as API Gateway routes it: as sent, without its query, never
 * normalised. The WHATWG URL parser resolves dot segments, `%2e%2e`, `.%2E` and `\` included, so
 * `/v1/forms/F/elements/E/logic-rules/%2e%2e` would have reached the element itself; here such a
 * segment stays a path parameter, which no id schema accepts (404 `not_found`).
 */
export function requestPath(target: string): string {
  const path = target.replace(ABSOLUTE_FORM, '').replace(/[?#].*$/s, '');
  const rooted = path.startsWith('/') ? path : `/${path}`;
  return rooted.replace(PATH_ESCAPED, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export interface IncomingRequest {
  method: string;
  /** The request URL, for its query string. */
  url: URL;
  /** The path as sent (`requestPath`): routing and the event use it, never `url.pathname`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  sourceIp: string;
  requestId: string;
}

/** The method ARN API Gateway hands the authorizer. */
export function methodArn(method: string, path: string): string {
  return `${LOCAL_API_ARN}/${LOCAL_STAGE}/${method}${path}`;
}

/** A REST API (v1) proxy event, as API Gateway builds it for a Lambda proxy integration. */
export function toProxyEvent(
  request: IncomingRequest,
  route: RouteDefinition,
  pathParameters: Record<string, string>,
  authorizer: Record<string, string> | null,
): APIGatewayProxyEvent {
  const headers: Record<string, string> = { ...single(request.headers), 'X-Forwarded-Proto': 'http', 'X-Forwarded-For': request.sourceIp };
  const multiValueHeaders = { ...multi(request.headers), 'X-Forwarded-Proto': ['http'], 'X-Forwarded-For': [request.sourceIp] };
  const q = query(request.url);
  const binary = isBinaryContentType(headers['content-type']);
  const now = new Date();
  return {
    resource: route.path,
    path: request.path,
    httpMethod: request.method,
    headers,
    multiValueHeaders,
    queryStringParameters: q.single,
    multiValueQueryStringParameters: q.multi,
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : null,
    stageVariables: null,
    body: request.body.length === 0 ? null : binary ? request.body.toString('base64') : request.body.toString('utf8'),
    isBase64Encoded: binary && request.body.length > 0,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer,
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: 'local',
      extendedRequestId: request.requestId,
      httpMethod: request.method,
      identity: {
        accessKey: null, accountId: null, apiKey: null, apiKeyId: null, caller: null, clientCert: null,
        cognitoAuthenticationProvider: null, cognitoAuthenticationType: null, cognitoIdentityId: null,
        cognitoIdentityPoolId: null, principalOrgId: null, sourceIp: request.sourceIp, user: null,
        userAgent: headers['user-agent'] ?? null, userArn: null,
      },
      path: request.path,
      protocol: 'HTTP/1.1',
      requestId: request.requestId,
      requestTime: requestTime(now),
      requestTimeEpoch: now.getTime(),
      resourceId: 'local',
      resourcePath: route.path,
      stage: LOCAL_STAGE,
    },
  };
}

/** The REQUEST authorizer event for the same request. */
export function toAuthorizerEvent(event: APIGatewayProxyEvent): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: methodArn(event.httpMethod, event.path),
    resource: event.resource,
    path: event.path,
    httpMethod: event.httpMethod,
    headers: event.headers as Record<string, string>,
    multiValueHeaders: event.multiValueHeaders as Record<string, string[]>,
    pathParameters: event.pathParameters as Record<string, string> | null,
    queryStringParameters: event.queryStringParameters as Record<string, string> | null,
    multiValueQueryStringParameters: event.multiValueQueryStringParameters as Record<string, string[]> | null,
    stageVariables: null,
    requestContext: { ...event.requestContext, authorizer: undefined },
  };
}

/** A Lambda context whose remaining time counts down from the function's deployed timeout. */
export function lambdaContext(functionName: string, requestId: string, timeoutMs: number = FUNCTION_TIMEOUT_MS.api): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
