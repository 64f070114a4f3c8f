import type { components, operations } from './schema.js';

/** Every `error.code` the API answers (the `/v1` envelope). Each operation's error responses narrow it. */
export type ErrorCode = components['schemas']['ErrorEnvelope']['error']['code'];

/** The `/v1` error body: `{error: {code, message, details?}}`. */
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

/** The flat error body of the public partner listing: `{status, error, message}`. */
export type FlatError = components['schemas']['FlatError'];

/** One offending input of a `validation_failed` or `invalid_query` error. */
export interface ErrorDetail {
  path: string;
  message: string;
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

function isFlat(body: unknown): body is FlatError {
  return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string';
}

/** The error bodies an operation's `responses` declare (every status but the 2xx and the 304). */
type ErrorBodiesOf<R> = {
  [S in Exclude<keyof R, 200 | 201 | 202 | 204 | 304>]: R[S] extends { content: { 'application/json': infer B } } ? B : never;
}[Exclude<keyof R, 200 | 201 | 202 | 204 | 304>];

/** Every `code` a `BoxofficeApiError` can carry: the envelope's codes and the partner listing's (lower-cased). */
export type ApiErrorCode = ErrorCode | CodesOf<ErrorBodiesOf<operations['listPartnerEvents']['responses']>>;

/**
 * A non-2xx answer, thrown by `unwrap`. `code` is the envelope's `error.code` (typed by `C`, the codes
 * the operation can answer; every code the API has where the operation is not known, as after
 * `instanceof`), or `unknown_error` when the body is neither error format (e.g. a proxy's HTML page).
 */
class ApiError<C extends string> extends Error {
  readonly status: number;
  readonly code: C | 'unknown_error';
  readonly details: ErrorDetail[] | undefined;
  /** `X-Request-Id` of the answer: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  readonly body: unknown;

  constructor(response: Response, body: unknown) {
    const parsed = isEnvelope(body)
      ? { code: body.error.code as C, message: body.error.message, details: body.error.details as ErrorDetail[] | undefined }
      : isFlat(body)
        ? { code: body.error.toLowerCase() as C, message: body.message, details: undefined }
        : { code: 'unknown_error' as const, message: `HTTP ${response.status}`, details: undefined };
    super(parsed.message);
    this.name = 'BoxofficeApiError';
    this.status = response.status;
    this.code = parsed.code;
    this.details = Array.isArray(parsed.details) ? parsed.details : undefined;
    this.requestId = response.headers.get('x-request-id') ?? undefined;
    this.body = body;
  }
}

/** A non-2xx answer of an operation whose error codes are `C` (`unwrap` narrows them per operation). */
export type BoxofficeApiError<C extends string = ApiErrorCode> = ApiError<C>;

/**
 * The class of `BoxofficeApiError`. Declared with its `prototype` typed by every code, because TypeScript
 * narrows `error instanceof` a generic class to `any` type arguments: `code` would be `any` in a `catch`.
 */
export const BoxofficeApiError: {
  new <C extends string = ApiErrorCode>(response: Response, body: unknown): BoxofficeApiError<C>;
  readonly prototype: BoxofficeApiError<ApiErrorCode>;
} = ApiError;

/** The error codes inside an openapi-fetch error body type (envelope or flat). */
export type CodesOf<E> = E extends { error: { code: infer C extends string } } ? C : E extends { error: infer C extends string } ? Lowercase<C> : never;

/** What openapi-fetch resolves to: data on 2xx, error (the typed body) otherwise. */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful call, or a thrown `BoxofficeApiError` typed with the codes the operation can
 * answer:
 *
 * ```ts
 * const form = await unwrap(client.POST('/v1/forms', { body: { name: 'RSVP', type: 'standalone' } }));
 * ```
 */
export async function unwrap<T extends FetchResult>(call: Promise<T>): Promise<Extract<T, { error?: never }>['data']> {
  const result = await call;
  if (!result.response.ok) throw new BoxofficeApiError<CodesOf<NonNullable<T['error']>>>(result.response, result.error);
  return result.data as Extract<T, { error?: never }>['data'];
}
