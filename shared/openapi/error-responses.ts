import * as z from 'zod';
import { errorEnvelopeSchema } from '../http/schemas.js';
import { takesIdempotencyKey, takesNoBody, type RouteDefinition } from '../http/route.js';

/** Flat error body of the partner listing (spec): `{status, error, message}`. */
export const flatErrorSchema = z
  .object({
    status: z.number().int().meta({ description: 'HTTP status, repeated in the body.' }),
    error: z.string().meta({ description: 'SCREAMING_SNAKE code, e.g. `INVALID_QUERY`.' }),
    message: z.string(),
  })
  .meta({ id: 'FlatError', description: 'Error body of the public partner listing.' });

/** Path parameter names of an API Gateway path: `/v1/forms/{formId}` -> `['formId']`. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^/}]+)\}/g)].map((match) => match[1] as string);
}

/**
 * Every error status a client can get from this route: implied by its auth, path parameters, query,
 * body and idempotency, plus the ones the route declares. 429 and 500 can happen anywhere.
 */
export function errorStatusesOf(route: RouteDefinition): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  if (route.auth === 'key') {
    statuses.add(401);
    statuses.add(503);
    // Read-only keys are allowed the safe methods only.
    if (route.method !== 'GET') statuses.add(403);
  }
  if (pathParameterNames(route.path).length > 0) statuses.add(404);
  if (route.query) statuses.add(route.queryErrorCode === 'validation_failed' ? 422 : 400);
  if (route.body) {
    for (const status of [400, 413, 415, 422]) statuses.add(status);
  }
  if (route.rawBody) {
    statuses.add(413);
    statuses.add(415);
  }
  if (takesNoBody(route)) {
    // A route that takes no body accepts none or `{}`, and refuses any other body as a bad body elsewhere:
    // unparseable (400), too large (413), another content type (415), fields (422).
    for (const status of [400, 413, 415, 422]) statuses.add(status);
  }
  if (takesIdempotencyKey(route)) {
    // A reused key with another body, or while its first request still runs, is 409; a malformed
    // Idempotency-Key header is 422.
    statuses.add(409);
    statuses.add(422);
  }
  if (route.ifMatch) {
    // A stale If-Match version is 409; a malformed one is 422.
    statuses.add(409);
    statuses.add(422);
  }
  statuses.add(429);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

/**
 * The error body schema of one status on one route. Gateway-level errors (401/403/429) are always the
 * envelope, because API Gateway answers them before the route's own error format applies.
 */
export function errorSchemaOf(route: RouteDefinition, status: number): z.ZodType {
  const fromGateway = status === 401 || status === 403 || status === 429;
  return route.errorFormat === 'flat' && !fromGateway ? flatErrorSchema : errorEnvelopeSchema;
}

/** A key of an operation's `responses` for errors and the statuses it stands for. */
export interface ErrorResponseKey {
  readonly key: string;
  readonly statuses: readonly number[];
}

/**
 * How a route's error statuses appear in its `responses`: one key per status, except 500 and 503
 * together under the range `5XX` (OpenAPI 3.1) when the route can answer both: the client handles both
 * alike (a server-side failure, retry later), and `error.code` tells them apart.
 */
export function errorResponseKeysOf(route: RouteDefinition): ErrorResponseKey[] {
  const statuses = errorStatusesOf(route);
  const server = statuses.includes(500) && statuses.includes(503) ? [500, 503] : [];
  const keys: ErrorResponseKey[] = statuses.filter((status) => !server.includes(status)).map((status) => ({ key: String(status), statuses: [status] }));
  return server.length > 0 ? [...keys, { key: '5XX', statuses: server }] : keys;
}
