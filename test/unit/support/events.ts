import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { lambdaContext, requestPath, toProxyEvent } from '../../../bin/local/api-gateway-event.js';
import { matchPath, type RouteDefinition } from '../../../shared/http/route.js';

export interface EventOptions {
  method?: string;
  path: string;
  route: RouteDefinition;
  body?: string | Buffer;
  headers?: Record<string, string>;
  workspaceId?: string;
  scope?: 'read_write' | 'read_only';
}

/** A REST v1 proxy event exactly as the local server (and API Gateway) builds it. */
export function apiEvent(options: EventOptions): APIGatewayProxyEvent {
  const url = new URL(`http://127.0.0.1:3000${options.path}`);
  const path = requestPath(options.path);
  const body = options.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body);
  const authorizer = options.workspaceId
    ? { workspaceId: options.workspaceId, keyId: 'key-1', scope: options.scope ?? 'read_write', principalId: 'key-1' }
    : null;
  return toProxyEvent(
    {
      method: options.method ?? options.route.method,
      url,
      path,
      headers: { host: '127.0.0.1:3000', ...Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])) },
      body,
      sourceIp: '127.0.0.1',
      requestId: 'req-1',
    },
    options.route,
    matchPath(options.route.path, path) ?? {},
    authorizer,
  );
}

export function context(name = 'boxoffice-test'): Context {
  return lambdaContext(name, 'req-1');
}
