import createClient, { defaultBodySerializer, type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export { BoxofficeApiError, unwrap, type ApiErrorCode, type CodesOf, type ErrorCode, type ErrorDetail, type ErrorEnvelope, type FlatError } from './errors.js';
export type { components, operations, paths };

/** The schemas of the API by name: `Schemas['Invoice']`, `Schemas['CreateForm']`, ... */
export type Schemas = components['schemas'];

export type BoxofficeClient = Client<paths>;

export interface RetryOptions {
  /** Further attempts after the first. @default 2 */
  readonly retries?: number;
  /** Delay before the first retry, doubled (with jitter) on each further one. @default 200 */
  readonly baseDelayMs?: number;
  /** Upper bound of one delay, also for a server's `Retry-After`. @default 5000 */
  readonly maxDelayMs?: number;
}

export interface BoxofficeClientOptions {
  /** API root, e.g. `https://abc123.execute-api.eu-west-1.amazonaws.com/prod` or `http://127.0.0.1:3000`. */
  readonly baseUrl: string;
  /** A workspace API key (`bo_live_...`), sent as `Authorization: Bearer <key>`. */
  readonly apiKey?: string;
  /** The fetch to use. @default globalThis.fetch */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Mints the `Idempotency-Key` of a POST that has none. @default crypto.randomUUID */
  readonly newIdempotencyKey?: () => string;
  /** Retries of 429, 503, a keyed POST still running (409 with `Retry-After`) and network failures; `false` for none. */
  readonly retry?: RetryOptions | false;
}

/** The header every POST takes: a retry with the same key and body replays the first answer (24 hours). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * Gives every POST an `Idempotency-Key` unless the caller set one. The key is minted once per call, so
 * the retries of that call (see `retryingFetch`) carry the same key and the server applies it once.
 */
export function idempotencyKeyMiddleware(newKey: () => string = () => crypto.randomUUID()): Middleware {
  return {
    onRequest({ request }) {
      if (request.method !== 'POST' || request.headers.has(IDEMPOTENCY_KEY_HEADER)) return undefined;
      request.headers.set(IDEMPOTENCY_KEY_HEADER, newKey());
      return request;
    },
  };
}

/** Sends the API key on every request. */
export function apiKeyMiddleware(apiKey: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${apiKey}`);
      return request;
    },
  };
}

/** Reads: repeating them changes nothing. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request may be sent again after `response` (undefined: no answer came, a network failure),
 * so that the server applies it at most once and the caller sees its real outcome:
 * - reads, always (429, 503, no answer);
 * - a POST with an `Idempotency-Key`, likewise, and on a 409 that carries `Retry-After`: the same key
 *   still running (a uniqueness or version 409 has none). A repeat after a lost answer replays it;
 * - PUT and DELETE only on 429, which the gateway answers before anything runs: after a lost answer or a
 *   503 the first attempt may have been applied, and its repeat would answer 404 (a DELETE) or 409 (a PUT
 *   with `If-Match`) for a change that succeeded;
 * - PATCH never (nothing makes its repeat harmless).
 */
function mayRepeat(request: Request, response: Response | undefined): boolean {
  const status = response?.status;
  if (READS.has(request.method)) return status === undefined || status === 429 || status === 503;
  if (request.method === 'POST' && request.headers.has(IDEMPOTENCY_KEY_HEADER)) {
    return status === undefined || status === 429 || status === 503 || (status === 409 && response?.headers.has('retry-after') === true);
  }
  return (request.method === 'PUT' || request.method === 'DELETE') && status === 429;
}

function delayOf(attempt: number, options: Required<RetryOptions>, retryAfter: string | null): number {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  const backoff = Number.isFinite(seconds) ? seconds * 1000 : options.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
  return Math.min(options.maxDelayMs, Math.max(0, backoff));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that repeats a request answered 429 or 503, or lost to a network failure, when repeating it
 * cannot apply it twice (`mayRepeat`). A POST is repeated with the same `Idempotency-Key`: if the first
 * attempt did reach the server, the repeat replays its answer (`Idempotent-Replayed: true`) instead of
 * doing it again, or waits for it (409 with `Retry-After` while it still runs).
 */
export function retryingFetch(send: (request: Request) => Promise<Response>, options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const settings: Required<RetryOptions> = { retries: 2, baseDelayMs: 200, maxDelayMs: 5000, ...options };
  return async (request) => {
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt > settings.retries;
      // A body can be read once: every attempt but the last sends a copy.
      const current = last ? request : request.clone();
      let response: Response;
      try {
        response = await send(current);
      } catch (error) {
        if (last || !mayRepeat(request, undefined)) throw error;
        await sleep(delayOf(attempt, settings, null));
        continue;
      }
      if (last || !mayRepeat(request, response)) return response;
      await response.body?.cancel();
      await sleep(delayOf(attempt, settings, response.headers.get('retry-after')));
    }
  };
}

/** Raw bodies (an image's bytes) go as they are; every other body is JSON. */
function serializeBody(body: unknown): unknown {
  if (body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return body;
  return defaultBodySerializer(body);
}

/**
 * A typed client of the Boxoffice API (openapi-fetch over the types generated from the OpenAPI
 * document): paths, parameters, bodies, answers and error bodies (with their `error.code` values) are
 * all checked by TypeScript.
 *
 * ```ts
 * const client = createBoxofficeClient({ baseUrl: 'http://127.0.0.1:3000', apiKey });
 * const { data, error } = await client.POST('/v1/forms', { body: { name: 'RSVP', type: 'standalone' } });
 * ```
 */
export function createBoxofficeClient(options: BoxofficeClientOptions): BoxofficeClient {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.retry === false ? send : retryingFetch(send, options.retry),
    // An object parameter is `style: form, explode: true` in the document: the partner listing's
    // metaData filters go as `?city=Montreal`, not openapi-fetch's default `?metaData[city]=Montreal`.
    querySerializer: { object: { style: 'form', explode: true } },
    bodySerializer: serializeBody,
  });
  if (options.apiKey !== undefined) client.use(apiKeyMiddleware(options.apiKey));
  client.use(idempotencyKeyMiddleware(options.newIdempotencyKey));
  return client;
}
