import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpRouterHandler, { type Route } from '@middy/http-router';
import { config } from '../config.js';
import { MethodNotAllowedError, NotFoundError } from '../errors.js';
import { formatDbStats, withRequestScope } from '../db/instrumentation.js';
import { logger } from '../logger.js';
import { toMiddyHttpError } from './error-mapping.js';
import type { Operation } from './operation.js';
import type { RouteDefinition, RouteGroup } from './route.js';
import { routesOfGroup } from './routes.js';
import { matchPath } from './route.js';

export type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** Every route of the group has exactly one operation and every operation a route; else it throws. */
export function checkGroupCoverage(group: RouteGroup, operations: readonly Operation[]): void {
  const expected = new Set(routesOfGroup(group).map((route) => route.operation));
  const actual = new Set(operations.map((operation) => operation.route.operation));
  const missing = [...expected].filter((name) => !actual.has(name));
  const extra = [...actual].filter((name) => !expected.has(name));
  if (missing.length > 0 || extra.length > 0 || actual.size !== operations.length) {
    throw new Error(`Group ${group}: routes without operation [${missing.join(', ')}], operations without route [${extra.join(', ')}]`);
  }
}

function notFoundOrMethodNotAllowed(routes: readonly RouteDefinition[], path: string): never {
  const allowed = routes.filter((route) => matchPath(route.path, path)).map((route) => route.method);
  if (allowed.length > 0) throw new MethodNotAllowedError(allowed);
  throw new NotFoundError('Route');
}

/**
 * The Lambda handler of one endpoint group: header normalisation, then @middy/http-router dispatch
 * from the route table, then request-scoped DynamoDB statistics, `X-Request-Id`, and one log line.
 * `extraRoutes` is only for test-only routes.
 */
export function createGroupHandler(group: RouteGroup, operations: readonly Operation[], extraRoutes: readonly Operation[] = []): LambdaHandler {
  if (extraRoutes.length === 0) checkGroupCoverage(group, operations);
  const all = [...operations, ...extraRoutes];
  const routes: Route<APIGatewayProxyEvent, APIGatewayProxyResult>[] = all.map((operation) => ({
    method: operation.route.method,
    path: operation.route.path,
    handler: operation.handler,
  }));
  const router = httpRouterHandler<APIGatewayProxyEvent, APIGatewayProxyResult>({
    routes,
    notFoundResponse: ({ path }) => notFoundOrMethodNotAllowed(all.map((operation) => operation.route), path),
  });
  const routed = middy<APIGatewayProxyEvent, APIGatewayProxyResult>(router as unknown as LambdaHandler)
    .use(httpErrorHandler({ logger: false }))
    .use({
      onError: (request) => {
        request.error = toMiddyHttpError(request.error);
      },
    })
    .use(httpHeaderNormalizer());
  const exposeDbStats = config().exposeDbStats;

  return async (event, context) => {
    const started = performance.now();
    const requestId = event.requestContext?.requestId ?? context.awsRequestId;
    logger.addContext(context);
    const { result, stats } = await withRequestScope(() => routed(event, context) as Promise<APIGatewayProxyResult>);
    result.headers = { ...result.headers, 'X-Request-Id': requestId };
    if (exposeDbStats) result.headers['X-Db-Stats'] = formatDbStats(stats);
    const authorizer = event.requestContext?.authorizer as Record<string, unknown> | undefined;
    logger.info('request', {
      requestId,
      method: event.httpMethod,
      resource: event.resource,
      status: result.statusCode,
      durationMs: Math.round(performance.now() - started),
      workspaceId: authorizer?.workspaceId,
      db: stats,
    });
    return result;
  };
}
