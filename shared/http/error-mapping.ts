import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ConflictError, DomainError, MethodNotAllowedError, ServiceUnavailableError } from '../errors.js';
import { logger } from '../logger.js';
import { isDatastoreUnavailable } from '../db/failures.js';
import { escapedWriteFailure } from '../db/write-failures.js';
import { createError } from '@middy/util';
import type { ErrorFormat } from './route.js';

/** The one mapping from domain error classes to HTTP statuses (API.md "Conventions"). */
const STATUS_BY_CODE: Record<string, number> = {
  invalid_json: 400,
  invalid_query: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_state: 409,
  idempotency_key_reused: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
};

export interface HttpErrorResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** Normalises any thrown value into a domain error; unknown errors stay unknown (-> 500). */
export function toDomainError(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
  // A conditional write that escaped its repository: somebody else changed the item first.
  if (error instanceof ConditionalCheckFailedException) return new ConflictError('The resource was modified concurrently. Retry the request.');
  // A transaction or write that escaped the toolkit: throttled or lost a race (503), or a failed condition (409).
  const escaped = escapedWriteFailure(error);
  if (escaped) return escaped;
  // DynamoDB overloaded or unreachable after the SDK's attempts: retryable by the client.
  if (isDatastoreUnavailable(error)) return new ServiceUnavailableError();
  return undefined;
}

/** SCREAMING_SNAKE code for flat (partner) error bodies. */
function flatCode(code: string): string {
  return code === 'internal_error' ? 'INTERNAL_SERVER_ERROR' : code.toUpperCase();
}

/**
 * Renders an error as an HTTP response. Unknown errors are logged in full and answered with a generic
 * 500 that never echoes internals.
 */
export function renderError(error: unknown, format: ErrorFormat = 'envelope'): HttpErrorResponse {
  const domain = toDomainError(error);
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' };
  let statusCode: number;
  let code: string;
  let message: string;
  let details: unknown;
  if (domain) {
    statusCode = STATUS_BY_CODE[domain.code] ?? 400;
    code = domain.code;
    message = domain.message;
    details = domain.details;
    if (domain instanceof MethodNotAllowedError) headers.Allow = domain.allowed.join(', ');
    if (statusCode === 503 || statusCode === 429 || (domain as { retryable?: boolean }).retryable === true) headers['Retry-After'] = '1';
    if (statusCode >= 500) logger.warn('Request failed with a retryable error', { error: error as Error });
  } else {
    logger.error('Unhandled error', { error: error as Error });
    statusCode = 500;
    code = 'internal_error';
    message = 'An unexpected error occurred. Retry later.';
  }
  const errorCode = (domain as { flatCode?: string } | undefined)?.flatCode;
  const body = format === 'flat'
    ? { status: statusCode, error: errorCode ?? flatCode(code), message }
    : { error: details === undefined ? { code, message } : { code, message, details } };
  return { statusCode, headers, body: JSON.stringify(body) };
}

/**
 * The rendered error as the HttpError that @middy/http-error-handler turns into the response
 * (status, body and headers: `createError` itself drops headers, so they are attached here).
 */
export function toMiddyHttpError(error: unknown, format: ErrorFormat = 'envelope'): Error {
  const rendered = renderError(error, format);
  return Object.assign(createError(rendered.statusCode, rendered.body, { expose: true }), { headers: rendered.headers });
}
