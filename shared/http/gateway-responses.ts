import type { ErrorFormat, RouteDefinition } from './route.js';
import { SECURITY_HEADERS } from './security-headers.js';

/**
 * Errors answered by the gateway before any group handler runs. The CDK stack turns these into API
 * Gateway gateway responses; the local server answers with exactly the same statuses and bodies.
 */
export interface GatewayErrorDefinition {
  /**
   * The status this response type answers with. Absent on the catch-all DEFAULT_4XX/DEFAULT_5XX: they
   * keep the status of the error they stand in for (a 504 integration timeout stays 504).
   */
  readonly statusCode?: number;
  readonly code: string;
  readonly message: string;
  /** The client may retry after a pause: the contract promises `Retry-After`. */
  readonly retryable?: boolean;
}

export const GATEWAY_ERRORS = {
  /** The authorizer rejected the request: missing, malformed, unknown or revoked key. */
  UNAUTHORIZED: { statusCode: 401, code: 'unauthorized', message: 'Missing or invalid API key. Send Authorization: Bearer <API key>.' },
  /** The authorizer's policy does not allow this method (e.g. a read-only key on a write). */
  ACCESS_DENIED: { statusCode: 403, code: 'forbidden', message: 'This API key is not allowed to perform this request.' },
  /** No resource matches the path (API Gateway's default is a misleading 403). */
  MISSING_AUTHENTICATION_TOKEN: { statusCode: 404, code: 'not_found', message: 'No route matches this path.' },
  /** The authorizer itself failed (datastore unreachable): retryable, not the caller's fault. */
  AUTHORIZER_FAILURE: { statusCode: 503, code: 'service_unavailable', message: 'The service is temporarily unavailable. Retry shortly.', retryable: true },
  /** Above the workspace's usage plan limits (or the stage's ceiling). */
  THROTTLED: { statusCode: 429, code: 'rate_limited', message: 'Too many requests. Retry after a short pause.', retryable: true },
  /**
   * The authorizer named no usage plan key, or one in no usage plan of the stage: the workspace has no
   * plan yet (created before usage plans and not given one by the operator). Not the client's doing.
   */
  INVALID_API_KEY: { statusCode: 403, code: 'forbidden', message: 'This workspace is not enabled on this API yet. Contact the API operator.' },
  /** A usage plan's quota is used up (API Gateway's default status is kept: 429). */
  QUOTA_EXCEEDED: { statusCode: 429, code: 'rate_limited', message: 'Too many requests. Retry after a short pause.', retryable: true },
  REQUEST_TOO_LARGE: { statusCode: 413, code: 'payload_too_large', message: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { statusCode: 415, code: 'unsupported_media_type', message: 'This content type is not supported.' },
  /** Every other 4xx and 5xx (integration timeout 504, failed invocation 502, ...) keeps its own status. */
  DEFAULT_4XX: { code: 'bad_request', message: 'The request could not be processed.' },
  DEFAULT_5XX: { code: 'internal_error', message: 'An unexpected error occurred. Retry later.' },
} as const satisfies Record<string, GatewayErrorDefinition>;

export type GatewayErrorType = keyof typeof GATEWAY_ERRORS;

/**
 * Headers of the 405 answer (deployed: the MOCK integration's; locally: the server's), CORS included on
 * public cross-origin paths so that browsers on other sites can read it.
 */
export function methodNotAllowedHeaders(allowed: readonly string[], cors: boolean): Record<string, string> {
  return { ...SECURITY_HEADERS, 'Content-Type': 'application/json', Allow: allowed.join(', '), ...(cors ? corsHeaders() : {}) };
}

/** A known path called with a method it does not have (deployed: a MOCK integration on `ANY`). */
export const METHOD_NOT_ALLOWED: GatewayErrorDefinition = {
  statusCode: 405,
  code: 'method_not_allowed',
  message: 'This method is not allowed on this path.',
};

export function gatewayErrorBody(definition: GatewayErrorDefinition): string {
  return JSON.stringify({ error: { code: definition.code, message: definition.message } });
}

/** The error format of a path: flat when one of its routes answers flat errors (the partner listing). */
export function errorFormatOf(routes: readonly RouteDefinition[]): ErrorFormat {
  return routes.some((route) => route.errorFormat === 'flat') ? 'flat' : 'envelope';
}

/**
 * The 405 body of a path in its routes' error format: the partner listing's errors are flat (spec
 * "Partner events errors"), `{status: 405, error: "METHOD_NOT_ALLOWED", message}`, every other path's
 * the envelope. Unlike the gateway responses, the 405 is a method of its own resource, so it can differ.
 */
export function methodNotAllowedBody(format: ErrorFormat = 'envelope'): string {
  if (format === 'envelope') return gatewayErrorBody(METHOD_NOT_ALLOWED);
  return JSON.stringify({ status: METHOD_NOT_ALLOWED.statusCode, error: METHOD_NOT_ALLOWED.code.toUpperCase(), message: METHOD_NOT_ALLOWED.message });
}

/** CORS for public routes, shared by the deployed preflight and the local server. */
export const PUBLIC_CORS = {
  allowOrigin: '*',
  allowHeaders: ['Content-Type', 'Idempotency-Key'],
  // `Idempotent-Replayed`: a public submission retried with its key tells the widget it was a replay.
  exposeHeaders: ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed'],
  maxAgeSeconds: 600,
} as const;

/** Content types API Gateway passes to Lambda base64-encoded (image uploads). */
export const BINARY_MEDIA_TYPES = ['image/png', 'image/jpeg', 'application/octet-stream'] as const;

/**
 * CORS headers of every gateway error response (deployed: API-wide gateway responses; locally: the
 * same). Gateway responses cannot differ per route, and a browser on a partner's site must be able to
 * read a 429, 413 or 5xx of `/partner/events` or `/forms/...`. On `/v1` routes they expose nothing:
 * the bodies are fixed texts, and a browser cannot send a key cross-origin (no preflight is answered).
 */
export function gatewayErrorHeaders(definition: GatewayErrorDefinition): Record<string, string> {
  return { ...SECURITY_HEADERS, ...corsHeaders(), ...(definition.retryable ? { 'Retry-After': '1' } : {}) };
}

export function corsHeaders(): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': PUBLIC_CORS.allowOrigin,
    'Access-Control-Expose-Headers': PUBLIC_CORS.exposeHeaders.join(', '),
  };
}

/** Preflight answer for one path: it allows exactly the methods the path has (plus OPTIONS). */
export function corsPreflightHeaders(methods: readonly string[]): Record<string, string> {
  return {
    ...SECURITY_HEADERS,
    ...corsHeaders(),
    'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
    'Access-Control-Allow-Headers': PUBLIC_CORS.allowHeaders.join(', '),
    'Access-Control-Max-Age': String(PUBLIC_CORS.maxAgeSeconds),
  };
}
