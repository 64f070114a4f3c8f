import { takesIdempotencyKey, takesNoBody, type RouteDefinition } from '../http/route.js';

/**
 * The `error.code` values of the API, in the order the document lists them, each with what it means to
 * an API user. The envelope's `code` is an enum of these; each operation's error responses narrow it to
 * the codes that operation can answer.
 */
export const ERROR_CODES = {
  invalid_json: 'the body is not parseable JSON or not an object.',
  invalid_query: 'a query parameter is malformed or out of range; `details` lists `[{path, message}]`.',
  unauthorized: 'missing, malformed, unknown or revoked API key.',
  forbidden: 'the key is valid but may not do this (a read-only key on a write).',
  not_found: 'no such resource (on `/v1`, in your workspace: another workspace\'s object is indistinguishable from an absent one), or a malformed id.',
  method_not_allowed: 'the path exists but not with this method.',
  conflict: 'a uniqueness rule, a concurrent change, or a stale `If-Match` version.',
  invalid_state: 'the resource\'s current status does not allow this transition.',
  idempotency_key_reused: 'this `Idempotency-Key` was already used with a different request.',
  payload_too_large: 'the body is above the limit: 1 MiB (1,048,576 bytes) for JSON, 4 MiB for an image.',
  unsupported_media_type: 'the body has a content type this operation does not take.',
  validation_failed: 'well-formed input that breaks a schema or business rule; `details` lists `[{path, message}]`.',
  rate_limited: 'throttled; retry after a short pause.',
  internal_error: 'unexpected failure; the message is generic and details are only logged.',
  service_unavailable: 'the datastore is unreachable or throttling after retries; retry shortly.',
  bad_request: 'refused before any operation ran (malformed HTTP, request line and headers over 16 KiB, a request not received in time, another gateway refusal); the status says which.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The flat codes of the public partner listing (`{status, error, message}`), with their meaning. */
export const FLAT_ERROR_CODES: Readonly<Record<string, string>> = {
  REFERRAL_CODE_REQUIRED: 'the query has no (or an empty) `referral_code`.',
  INVALID_QUERY: 'a query parameter is malformed.',
  PARTNER_NOT_FOUND: 'no partner has this referral code.',
  NO_EVENTS_FOUND: 'the partner has no public events on this page.',
  INTERNAL_SERVER_ERROR: 'unexpected failure; the message is generic.',
};

/**
 * Flat codes answered with another body than `{status, error, message}`: the schema component of that
 * body, and what the code fixes in it. The spec answers `NO_EVENTS_FOUND` with the listing's fields, its page empty.
 */
export const FLAT_CODE_BODIES: Readonly<Record<string, { readonly schema: string; readonly properties: Readonly<Record<string, unknown>> }>> = {
  NO_EVENTS_FOUND: { schema: 'PartnerEventList', properties: { data: { maxItems: 0 }, total: { const: 0 }, hasMore: { const: false } } },
};

const CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'service_unavailable',
};

/** Operations whose 409 can also be `invalid_state` (a status transition their resource refuses). */
const INVALID_STATE_OPERATIONS = new Set([
  'reviseInvoice', 'finalizeInvoice', 'chargeInvoice', 'recordInvoicePayment', 'refundInvoicePayment', 'voidInvoice',
  'redeliverWebhook',
  // An upload whose bytes have not arrived, that has expired, or that is already registered as an image.
  'completeImageUpload',
]);

/** Codes an operation answers that its route's shape does not imply (the flat partner listing). */
const CODE_OVERRIDES: Readonly<Record<string, Readonly<Record<number, readonly string[]>>>> = {
  listPartnerEvents: {
    400: ['REFERRAL_CODE_REQUIRED', 'INVALID_QUERY'],
    404: ['PARTNER_NOT_FOUND', 'NO_EVENTS_FOUND'],
    500: ['INTERNAL_SERVER_ERROR'],
  },
};

/**
 * The codes `route` can answer with `status`: implied by its body, query, idempotency and `If-Match`,
 * and by the state machine of its resource. Listed in `ERROR_CODES` order.
 */
export function errorCodesOf(route: RouteDefinition, status: number): string[] {
  const override = CODE_OVERRIDES[route.operation]?.[status];
  if (override) return [...override];
  const codes = new Set<ErrorCode>();
  if (status === 400) {
    if (route.body || takesNoBody(route)) codes.add('invalid_json');
    if (route.query && route.queryErrorCode !== 'validation_failed') codes.add('invalid_query');
    if (codes.size === 0) codes.add(route.query ? 'invalid_query' : 'invalid_json');
  } else if (status === 409) {
    // A reused key: another request is `idempotency_key_reused`, the same one still running is `conflict`.
    if (takesIdempotencyKey(route)) {
      codes.add('idempotency_key_reused');
      codes.add('conflict');
    }
    if (route.ifMatch || route.errors?.includes(409)) codes.add('conflict');
    if (INVALID_STATE_OPERATIONS.has(route.operation)) codes.add('invalid_state');
  } else {
    const code = CODE_BY_STATUS[status];
    if (code) codes.add(code);
  }
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => codes.has(code));
}

/** `not_found` -> `NotFound`; `['conflict', 'invalid_state']` -> `ConflictOrInvalidState`. */
export function errorResponseName(codes: readonly string[], flat: boolean): string {
  const pascal = (code: string) => code.toLowerCase().split('_').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  return `${flat ? 'Flat' : ''}${codes.map(pascal).join('Or')}`;
}
