/**
 * Domain errors: thrown by services and repositories, turned into HTTP responses in exactly one place
 * (shared/http/error-mapping.ts). This module has no HTTP imports on purpose.
 */

/** One offending input: a path such as `elements[3].options` and a human message. */
export interface ErrorDetail {
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  /** Stable machine code written into the error envelope. */
  abstract readonly code: string;
  readonly details?: unknown;

  constructor(message: string, details?: unknown) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

/** Absent resource, or one owned by another workspace: the two are indistinguishable on purpose. */
export class NotFoundError extends DomainError {
  readonly code = 'not_found';
  constructor(resource = 'Resource') {
    super(`${resource} not found.`);
  }
}

/** Well-formed input that breaks a schema or a business rule. */
export class ValidationError extends DomainError {
  readonly code = 'validation_failed';
  declare readonly details: ErrorDetail[];
  constructor(details: ErrorDetail[] | ErrorDetail, message?: string) {
    const list = Array.isArray(details) ? details : [details];
    super(message ?? list[0]?.message ?? 'The request is invalid.', list);
  }
}

/** A malformed or out-of-range query parameter on list endpoints. */
export class InvalidQueryError extends DomainError {
  readonly code = 'invalid_query';
  declare readonly details: ErrorDetail[];
  constructor(details: ErrorDetail[], message?: string) {
    // One problem is named in the message itself (e.g. a page too deep says to follow `cursor`).
    const [only] = details;
    super(message ?? (details.length === 1 && only ? `Query parameter \`${only.path}\`: ${only.message}` : 'A query parameter is malformed or out of range.'), details);
  }
}

export class InvalidJsonError extends DomainError {
  readonly code = 'invalid_json';
  constructor(message = 'The request body must be a JSON object.') {
    super(message);
  }
}

/** Uniqueness violation or a stale `If-Match` version. */
export class ConflictError extends DomainError {
  readonly code = 'conflict';
}

/**
 * A request that collides with the same request still running (its `Idempotency-Key` is being worked on):
 * a conflict that ends by itself, so the answer says when to retry (`Retry-After`), unlike a uniqueness or
 * version conflict, which a retry would meet again.
 */
export class InProgressConflictError extends ConflictError {
  readonly retryable = true;
  constructor(message = 'A request with this Idempotency-Key is still in progress. Retry shortly.') {
    super(message);
  }
}

/** A transition that the current status does not allow. */
export class InvalidStateError extends DomainError {
  readonly code = 'invalid_state';
}

/** A key (the `Idempotency-Key` header, or a body `idempotencyKey`) sent again with a different request. */
export class IdempotencyKeyReusedError extends DomainError {
  readonly code = 'idempotency_key_reused';
  constructor(message = 'This Idempotency-Key was already used with a different request. Send the same request to get the first answer again, or use a new key.') {
    super(message);
  }
}

export class ForbiddenError extends DomainError {
  readonly code = 'forbidden';
}

export class PayloadTooLargeError extends DomainError {
  readonly code = 'payload_too_large';
}

export class UnsupportedMediaTypeError extends DomainError {
  readonly code = 'unsupported_media_type';
}

export class MethodNotAllowedError extends DomainError {
  readonly code = 'method_not_allowed';
  constructor(readonly allowed: string[]) {
    super(`Method not allowed. Allowed: ${allowed.join(', ')}.`);
  }
}

/** The datastore is unreachable or throttling after retries. */
export class ServiceUnavailableError extends DomainError {
  readonly code = 'service_unavailable';
  constructor(message = 'The service is temporarily unavailable. Retry shortly.') {
    super(message);
  }
}

/** No usable credential reached a key-protected operation (normally stopped by the authorizer). */
export class UnauthorizedError extends DomainError {
  readonly code = 'unauthorized';
  constructor() {
    super('Missing or invalid API key. Send Authorization: Bearer <API key>.');
  }
}

/**
 * Other requests kept winning the race for the same items, and the retries ran out. Nothing was
 * written: the client may retry at once (503 with `Retry-After`).
 */
export class WriteContentionError extends ServiceUnavailableError {
  constructor(message = 'Too many concurrent changes to the same data. Retry shortly.') {
    super(message);
  }
}

/**
 * The request's time budget (derived from the function's remaining time) cannot fit another
 * DynamoDB attempt: answered as a 503 before the function itself would time out.
 */
export class TimeBudgetExhaustedError extends ServiceUnavailableError {
  constructor() {
    super('The request ran out of time waiting for the datastore. Retry shortly.');
  }
}

/**
 * The request (same `Idempotency-Key`) was already applied, but its recorded response was lost, so it
 * cannot be replayed: the change is not made a second time. The client reads the resource instead.
 */
export class RequestAlreadyAppliedError extends ConflictError {
  constructor() {
    super('This request (Idempotency-Key) was already applied; its response is no longer available. Read the resource to see its current state.');
  }
}

/**
 * A write conditioned on the version that was read found another version: somebody changed the item
 * in between. `readModifyWrite` re-reads (no If-Match) or answers 409 (If-Match); if it escapes
 * anywhere else it is a 409 `conflict`.
 */
export class StaleVersionError extends ConflictError {
  constructor(resource = 'resource') {
    super(`The ${resource} was modified by another request. Re-read it and retry with the current version.`);
  }
}
