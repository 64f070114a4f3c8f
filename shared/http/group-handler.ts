import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpRouterHandler, { type Route } from '@middy/http-router';
import { config } from '../config.js';
import { MethodNotAllowedError, NotFoundError } from '../errors.js';
import { formatDbStats, withRequestScope } from '../db/instrumentation.js';
import { withTimeBudget } from '../db/time-budget.js';
import { logger } from '../logger.js';
import { traced } from '../observability/tracing.js';
import { toMiddyHttpError } from './error-mapping.js';
import { provideIdempotency, type IdempotencyRunner, type Operation } from './operation.js';
import type { RouteDefinition, RouteGroup } from './route.js';
import { matchPath, takesIdempotencyKey } from './route.js';
import { withSecurityHeaders } from './security-headers.js';

export type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

function notFoundOrMethodNotAllowed(routes: readonly RouteDefinition[], path: string): never {
  const allowed = routes.filter((route) => matchPath(route.path, path)).map((route) => route.method);
  if (allowed.length > 0) throw new MethodNotAllowedError(allowed);
  throw new NotFoundError('Route');
}

export interface GroupHandlerOptions {
  /**
   * `runIdempotent` from `shared/http/idempotency.ts`: required when a route of the group is a POST
   * that takes `Idempotency-Key`, and passed by those groups only, so that Powertools Idempotency is
   * bundled where it is used and nowhere else.
   */
  readonly idempotency?: IdempotencyRunner;
  /** Test-only routes. */
  readonly extraRoutes?: readonly Operation[];
}

/**
 * The Lambda handler of one endpoint group: header normalisation, then @middy/http-router dispatch
 * from the group's operations, then request-scoped DynamoDB statistics, `X-Request-Id`, the security
 * headers, and one log line.
 *
 * It imports nothing but its own group's operations: the whole route table (every group's schemas)
 * stays out of the bundle, and the check that the group's operations cover exactly its routes runs in
 * a unit test (`checkGroupCoverage` in `routes.ts`) instead of at every cold start.
 */
export function createGroupHandler(group: RouteGroup, operations: readonly Operation[], options: GroupHandlerOptions = {}): LambdaHandler {
  const stray = operations.filter((operation) => operation.route.group !== group);
  if (stray.length > 0) throw new Error(`Group ${group} was given operations of other groups: ${stray.map((operation) => operation.route.operation).join(', ')}`);
  const all = [...operations, ...(options.extraRoutes ?? [])];
  if (options.idempotency) provideIdempotency(options.idempotency);
  else if (all.some((operation) => takesIdempotencyKey(operation.route))) {
    throw new Error(`Group ${group} has POST routes that take Idempotency-Key: pass { idempotency: runIdempotent } to createGroupHandler`);
  }
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

  return traced(async (event, context) => {
    const started = performance.now();
    const requestId = event.requestContext?.requestId ?? context.awsRequestId;
    logger.addContext(context);
    // Every DynamoDB call of the request fits in the function's remaining time, or the answer is a 503.
    const { result, stats } = await withRequestScope(() => withTimeBudget(context.getRemainingTimeInMillis(), () => routed(event, context) as Promise<APIGatewayProxyResult>));
    // Every answer of the function, the router's 404/405 included, carries the security headers.
    result.headers = { ...withSecurityHeaders(result.headers as Record<string, string> | undefined), 'X-Request-Id': requestId };
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
  });
}
