import type * as z from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Endpoint groups: one Lambda function each (CDK) and one handler module each (`functions/<group>`). */
export const ROUTE_GROUPS = [
  'system', 'docs', 'forms', 'properties', 'contacts', 'events', 'partner', 'images', 'checkouts',
  'invoices', 'payouts', 'responses', 'webhooks',
] as const;
export type RouteGroup = (typeof ROUTE_GROUPS)[number];

/** `key`: Bearer API key through the Lambda authorizer; `public`: no credential. */
export type RouteAuth = 'key' | 'public';

/** Error body style: the `/v1` envelope, or the flat `{status, error, message}` of the partner listing. */
export type ErrorFormat = 'envelope' | 'flat';

/**
 * One row of the route table. Data only: paths in API Gateway syntax, schemas, auth. The CDK stack,
 * the local server, the group handlers and the OpenAPI document are all generated from these rows.
 */
export interface RouteDefinition<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  A extends RouteAuth = RouteAuth,
> {
  readonly group: RouteGroup;
  /** Unique operation id (also the OpenAPI operationId). */
  readonly operation: string;
  readonly method: HttpMethod;
  /** API Gateway path syntax, without trailing slash: `/v1/forms/{formId}`. */
  readonly path: string;
  readonly auth: A;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  /** Path parameters. A value that fails this schema is a 404 `not_found`, never a 422. */
  readonly params?: P;
  /** Query parameters (strings in, typed values out). */
  readonly query?: Q;
  /** JSON body. */
  readonly body?: B;
  /** A raw (binary) body instead of JSON: allowed content types, the size limit, and the 413's message. */
  readonly rawBody?: { readonly contentTypes: readonly string[]; readonly maxBytes: number; readonly tooLargeMessage?: string };
  /** Status for a bad query: 400 `invalid_query` (default) or 422 `validation_failed`. */
  readonly queryErrorCode?: 'invalid_query' | 'validation_failed';
  readonly success: {
    readonly status: 200 | 201 | 202 | 204;
    readonly description: string;
    readonly schema?: R;
    /**
     * Non-JSON success bodies (e.g. `text/html`), every content type the answer can have (the docs
     * assets: a script or a stylesheet); the first is sent when the operation returns a string. JSON when omitted.
     */
    readonly contentTypes?: readonly [string, ...string[]];
  };
  /** Answers `If-None-Match` naming its current `ETag` with an empty 304 (the document lists it). */
  readonly notModified?: boolean;
  /** Error statuses documented for this route (401/404/500 etc. are implied by auth and params). */
  readonly errors?: readonly number[];
  /**
   * The operation honours `If-Match: <version>` (optimistic concurrency): the operation layer parses the
   * header (422 when malformed) and hands the version to the operation as `ifMatch`.
   */
  readonly ifMatch?: boolean;
  /** POST routes honour `Idempotency-Key` unless this is false. */
  readonly idempotent?: boolean;
  /**
   * The success body holds a secret shown once (a webhook signing secret): the response an
   * `Idempotency-Key` keeps for its replays is stored sealed with a key derived from that
   * Idempotency-Key, which the server does not keep, so the secret is never stored in clear.
   */
  readonly responseHoldsSecret?: boolean;
  /** Public routes called from browsers on other sites: CORS headers on every response and preflight. */
  readonly cors?: boolean;
  readonly errorFormat?: ErrorFormat;
}

/** Declares a route, keeping its literal types so handlers get typed, validated input. */
export function defineRoute<const P extends z.ZodType, const Q extends z.ZodType, const B extends z.ZodType, const R extends z.ZodType, const A extends RouteAuth>(
  route: RouteDefinition<P, Q, B, R, A>,
): RouteDefinition<P, Q, B, R, A> {
  return route;
}

/** Whether a route takes an `Idempotency-Key` (every POST unless it opts out). */
export function takesIdempotencyKey(route: RouteDefinition): boolean {
  return route.method === 'POST' && route.idempotent !== false;
}

/**
 * Whether a route is a write that takes no body (finalize, void, deletes...): it accepts none or `{}`
 * and refuses any other body as a bad body elsewhere (`noBodyGuard`, and the answers the document lists).
 */
export function takesNoBody(route: RouteDefinition): boolean {
  return !route.body && !route.rawBody && route.method !== 'GET';
}

/** Turns an API Gateway path into a matcher: `/v1/forms/{formId}` matches `/v1/forms/abc` (and `/v1/forms/abc/`). */
export function pathMatcher(path: string): RegExp {
  const pattern = path
    .split('/')
    .map((segment) => (/^\{[^/]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}/?$`);
}

/** Extracts path parameters from a concrete path, URL-decoded as API Gateway passes them. */
export function matchPath(routePath: string, actualPath: string): Record<string, string> | undefined {
  const routeSegments = routePath.split('/');
  const actual = actualPath.length > 1 && actualPath.endsWith('/') ? actualPath.slice(0, -1) : actualPath;
  const actualSegments = actual.split('/');
  if (routeSegments.length !== actualSegments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < routeSegments.length; i += 1) {
    const expected = routeSegments[i] as string;
    const got = actualSegments[i] as string;
    const param = /^\{([^/]+)\}$/.exec(expected);
    if (param) {
      if (got === '') return undefined;
      try {
        params[param[1] as string] = decodeURIComponent(got);
      } catch {
        return undefined;
      }
    } else if (expected !== got) {
      return undefined;
    }
  }
  return params;
}
