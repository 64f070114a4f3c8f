import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod';
import { createDocument, type oas31, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { API_NAME, API_VERSION } from '../config.js';
import { BINARY_MEDIA_TYPES } from '../http/gateway-responses.js';
import { takesIdempotencyKey, type RouteDefinition } from '../http/route.js';
import { routeTable } from '../http/routes.js';
import { withServer } from './served-document.js';
import { errorResponseKeysOf, errorSchemaOf, flatErrorSchema, pathParameterNames } from './error-responses.js';
import { ERROR_CODES, FLAT_CODE_BODIES, FLAT_ERROR_CODES, errorCodesOf, errorResponseName } from './error-codes.js';
import { dropPatternsOnNumbers, dropRepeatedParameterDescriptions, dropSafeIntegerBounds, mergeTwinSchemas, shareCommonBranchProperties, shareRepeatedExamples, shareRepeatedParameters, shareRepeatedSchemas, shortenPlainUnions, titleTypedBranches } from './compact.js';
import { addExamples } from './examples.js';
import { errorEnvelopeSchema } from '../http/schemas.js';
import { ECHOED_FIELD_NOTES } from '../model/round-trip.js';

export type OpenApiDocument = oas31.OpenAPIObject;

export const BEARER_SCHEME = 'apiKey';

/** Choices the spec leaves open, written where API users read them (API.md asks for this). */
const API_DESCRIPTION = [
  'Event management and ticketing API. Every `/v1` operation needs `Authorization: Bearer <API key>`; ',
  'a key belongs to one workspace and sees only that workspace\'s data.',
  '',
  '**Conventions**',
  '- Paths work with and without a trailing slash.',
  '- A known path called with a method it does not have answers 405 `method_not_allowed`; an unknown path answers 404 `not_found`.',
  '- Ids are 24 lowercase hex characters: the creation second, then 64 random bits; a malformed id in a path is a 404.',
  '- Create answers 201 `{data}`, read and update 200 `{data}`, delete 204 with no body.',
  '- Errors are `{error: {code, message, details?}}` (the public partner listing uses `{status, error, message}`).',
  '- Money is always an integer amount in minor units (cents).',
  '- An operation with query parameters answers one given twice with 400 `invalid_query`.',
  '- An operation that takes a JSON body answers an empty body with 400 `invalid_json` (send `{}` to set no field); one that takes no body accepts none or `{}`. JSON is UTF-8: another declared `charset` is 415.',
  '- Text holding NUL (`\\u0000`) or a lone surrogate, an own `__proto__` or `constructor` key, a number outside DynamoDB\'s range and nesting deeper than 32 levels are 422 with the path of the value.',
  '- References are checked before balances and states: an unknown `referral_code`, invoice line `eventId` or payout `eventId` is 422 on its path.',
  '- Date-times are ISO 8601 with a time zone; an offset (`2027-06-01T18:00:00+02:00`) is converted, and responses carry UTC (`2027-06-01T16:00:00Z`).',
  '- Every POST accepts an `Idempotency-Key` header: a retry with the same key and body replays the first response; the same key with a different body is 409 `idempotency_key_reused`.',
  '- Versioned resources (forms, properties, checkouts, events, invoices) carry `version`; send `If-Match: <version>` on updates to get 409 `conflict` instead of overwriting a newer change.',
  '- Every response carries `X-Request-Id`; quote it when reporting a problem.',
  '- Images: one request carries at most 4 MiB (its base64 event must fit Lambda\'s 6 MB), else 413 pointing to the two-step upload: '
    + '`POST /v1/assets/images/uploads` (up to 25 MiB), `PUT` the bytes to `upload.url` with `upload.headers`, then `POST .../{uploadId}/complete`.',
].join('\n');

const idempotencyKeyHeader = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description: 'Any unique string (a UUID is a good choice). Retries with the same key and body replay the first response for 24 hours; while the first still runs they are 409 `conflict` with `Retry-After`. A request that failed is not stored: its retry runs again.',
  schema: { type: 'string' as const, minLength: 1, maxLength: 255 },
};

const ifMatchHeader = {
  name: 'If-Match',
  in: 'header' as const,
  required: false,
  description: 'The `version` you read. When the resource has changed since, the request is refused with 409 `conflict` instead of overwriting the newer change. Without it (or with `*`), concurrent updates are all applied.',
  schema: { type: 'string' as const, pattern: '^(\\*|(W/)?"?[0-9]{1,15}"?)$' },
};

/** Path parameters as OpenAPI needs them: every `{name}` of the path, typed by the route when it can. */
function pathParamsOf(route: RouteDefinition): z.ZodObject | undefined {
  const names = pathParameterNames(route.path);
  if (names.length === 0) return undefined;
  const declared = route.params instanceof z.ZodObject ? (route.params.shape as Record<string, z.ZodType>) : {};
  return z.object(Object.fromEntries(names.map((name) => [name, declared[name] ?? z.string()])));
}

function requestBodyOf(route: RouteDefinition): ZodOpenApiOperationObject['requestBody'] {
  if (route.body) return { required: true, content: { 'application/json': { schema: route.body } } };
  if (route.rawBody) {
    const { contentTypes, maxBytes } = route.rawBody;
    return {
      required: true,
      description: `Raw bytes, at most ${maxBytes} bytes.`,
      content: Object.fromEntries(contentTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
    };
  }
  return undefined;
}

/** What each tag groups, shown above its operations in Swagger UI. */
const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  System: 'Health and API information.',
  Docs: 'This document and its Swagger UI page.',
  Embeddables: 'The script of the embeddable widgets.',
  Forms: 'Standalone and order forms: their elements, layout and conditional logic.',
  Properties: 'CRM properties that form answers write to.',
  Contacts: 'The workspace\'s contacts (CRM).',
  Events: 'Events, their schedule and ticket products.',
  Partner: 'The public listing of a partner\'s events (no key, flat error bodies).',
  'Image assets': 'Images registered for events and forms.',
  Checkouts: 'Checkout pages selling an event\'s products.',
  Invoices: 'Invoices: drafts, finalization, charges, payments and refunds.',
  'Payout balance': 'The workspace\'s balance and payouts.',
  Webhooks: 'Webhook endpoints and their deliveries.',
};

type JsonObject = Record<string, unknown>;

/** A realistic message per code, for the error examples. */
const EXAMPLE_MESSAGES: Readonly<Record<string, string>> = {
  invalid_json: 'The request body must be a JSON object.',
  invalid_query: 'A query parameter is malformed or out of range.',
  unauthorized: 'Missing or invalid API key.',
  forbidden: 'This API key is read-only.',
  not_found: 'Resource not found.',
  conflict: 'The resource changed since you read it (version 3 is current).',
  invalid_state: 'Only a draft invoice can be finalized.',
  idempotency_key_reused: 'This Idempotency-Key was already used with a different request.',
  payload_too_large: 'The body is larger than the limit of this operation.',
  unsupported_media_type: 'This operation does not take this content type.',
  validation_failed: 'name: Required',
  rate_limited: 'Too many requests.',
  internal_error: 'Internal server error.',
  service_unavailable: 'The service is temporarily unavailable; retry shortly.',
};

/**
 * The shared error response of a set of codes (`components.responses`): the envelope (or the flat
 * body) with `code` narrowed to exactly those codes, their meanings, and an example.
 */
function errorResponseOf(codes: readonly string[], flat: boolean, status: number): JsonObject {
  const meanings = flat ? FLAT_ERROR_CODES : (ERROR_CODES as Readonly<Record<string, string>>);
  const description = codes.map((code) => `\`${code}\`: ${meanings[code] ?? ''}`).join(' ');
  const first = codes[0] as string;
  const [schema, example] = flat
    ? [
      flatNarrowedTo(codes, status),
      { status, error: first, message: `${(FLAT_ERROR_CODES[first] ?? '').replace(/^./, (letter) => letter.toUpperCase())}` },
    ]
    : [envelopeNarrowedTo(codes), envelopeExample(first)];
  return { description, content: { 'application/json': { schema, example } } };
}

/**
 * The flat body with `error` narrowed to `codes`; a code with a body of its own (`FLAT_CODE_BODIES`) is
 * a branch of a `oneOf` instead, so that each body is held to exactly its fields.
 */
function flatNarrowedTo(codes: readonly string[], status: number): JsonObject {
  const plain = codes.filter((code) => !FLAT_CODE_BODIES[code]);
  const branches = [
    ...(plain.length > 0 ? [{ allOf: [{ $ref: '#/components/schemas/FlatError' }, { properties: { status: { const: status }, error: { enum: plain } } }] }] : []),
    ...codes.flatMap((code) => {
      const body = FLAT_CODE_BODIES[code];
      if (!body) return [];
      const narrowing = { properties: { status: { const: status }, error: { const: code }, ...body.properties }, required: ['error'] };
      return [{ allOf: [{ $ref: `#/components/schemas/${body.schema}` }, narrowing] }];
    }),
  ];
  return branches.length === 1 ? branches[0] as JsonObject : { oneOf: branches };
}

/** The envelope with `code` narrowed to `codes` (it declares the types and required fields). */
function envelopeNarrowedTo(codes: readonly string[]): JsonObject {
  const withDetails = codes.includes('validation_failed') || codes.includes('invalid_query');
  return {
    allOf: [
      { $ref: '#/components/schemas/ErrorEnvelope' },
      {
        properties: {
          error: {
            properties: {
              code: { enum: [...codes] },
              // Redocly's example check treats the envelope's closed `error` as closing this one too.
              message: { type: 'string' },
              ...(withDetails ? { details: { type: 'array', items: { $ref: '#/components/schemas/ErrorDetail' } } } : {}),
            },
          },
        },
      },
    ],
  };
}

function envelopeExample(code: string): JsonObject {
  return {
    error: {
      code,
      message: EXAMPLE_MESSAGES[code] ?? 'Error.',
      ...(code === 'validation_failed' ? { details: [{ path: 'name', message: 'Required' }] } : {}),
      ...(code === 'invalid_query' ? { details: [{ path: 'limit', message: 'Too big: expected number to be <=100' }] } : {}),
    },
  };
}

function responsesOf(route: RouteDefinition, errorResponses: Map<string, JsonObject>): ZodOpenApiResponsesObject {
  const { status, description, schema, contentTypes } = route.success;
  const responses: ZodOpenApiResponsesObject = {};
  if (status === 204) {
    responses['204'] = { description };
  } else if (contentTypes) {
    responses[`${status}`] = { description, content: Object.fromEntries(contentTypes.map((type) => [type, { schema: { type: 'string' } }])) };
  } else {
    responses[`${status}`] = { description, content: { 'application/json': { schema: schema ?? z.object({}) } } };
  }
  if (route.notModified) responses['304'] = { description: 'Not modified: `If-None-Match` names the current `ETag`. No body.' };
  for (const { key, statuses } of errorResponseKeysOf(route)) {
    const [errorStatus] = statuses as [number];
    const codes = statuses.flatMap((status) => errorCodesOf(route, status));
    const flat = errorSchemaOf(route, errorStatus) === flatErrorSchema;
    const name = errorResponseName(codes, flat);
    if (!errorResponses.has(name)) errorResponses.set(name, errorResponseOf(codes, flat, errorStatus));
    responses[key as '400'] = { $ref: `#/components/responses/${name}` };
  }
  return responses;
}

function operationOf(route: RouteDefinition, errorResponses: Map<string, JsonObject>): ZodOpenApiOperationObject {
  const usesIdempotency = takesIdempotencyKey(route);
  return {
    operationId: route.operation,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [...route.tags],
    // The document's `security` asks for the key; public operations opt out.
    ...(route.auth === 'key' ? {} : { security: [] }),
    requestParams: {
      ...(pathParamsOf(route) ? { path: pathParamsOf(route) } : {}),
      ...(route.query ? { query: route.query as z.ZodType<unknown, Record<string, unknown>> } : {}),
    },
    ...(usesIdempotency || route.ifMatch
      ? { parameters: [...(usesIdempotency ? [idempotencyKeyHeader] : []), ...(route.ifMatch ? [ifMatchHeader] : [])] }
      : {}),
    ...(requestBodyOf(route) ? { requestBody: requestBodyOf(route) } : {}),
    responses: responsesOf(route, errorResponses),
  };
}

/** Builds the OpenAPI 3.1 document of the given routes (the whole route table by default). */
export function buildOpenApiDocument(routes: readonly RouteDefinition[] = routeTable): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  const errorResponses = new Map<string, JsonObject>();
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    item[route.method.toLowerCase() as Lowercase<RouteDefinition['method']>] = operationOf(route, errorResponses);
  }
  const created = createDocument({
    openapi: '3.1.0',
    info: { title: API_NAME, version: API_VERSION, description: API_DESCRIPTION },
    tags: [...new Set(routes.flatMap((route) => route.tags))].map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    security: [{ [BEARER_SCHEME]: [] }],
    paths,
    components: {
      schemas: { ErrorEnvelope: errorEnvelopeSchema, FlatError: flatErrorSchema },
      securitySchemes: {
        [BEARER_SCHEME]: { type: 'http', scheme: 'bearer', description: 'A workspace API key (`bo_live_...`), created with the admin CLI.' },
      },
    },
    'x-binary-media-types': [...BINARY_MEDIA_TYPES],
  });
  return finish(JSON.parse(JSON.stringify(created)) as JsonObject, errorResponses) as unknown as OpenApiDocument;
}

/**
 * What zod-openapi does not do: examples, the error responses with their codes, one schema per shape
 * (answer twins merged) and one shared component for every shape that repeats (parameters, schemas,
 * examples). Size and what each pass saves: README, OpenAPI "Size".
 */
function finish(document: JsonObject, errorResponses: Map<string, JsonObject>): JsonObject {
  dropSafeIntegerBounds(document);
  dropPatternsOnNumbers(document);
  mergeTwinSchemas(document);
  dropRepeatedParameterDescriptions(document);
  addExamples(document);
  const components = document.components as JsonObject & { schemas: Record<string, JsonObject> };
  components.responses = Object.fromEntries([...errorResponses].sort(([a], [b]) => a.localeCompare(b)));
  const envelope = components.schemas.ErrorEnvelope as { properties: { error: { properties: { code: JsonObject } } } };
  envelope.properties.error.properties.code.enum = Object.keys(ERROR_CODES);
  components.schemas.ErrorDetail = {
    type: 'object',
    properties: { path: { type: 'string', description: 'Offending input, e.g. `elements[3].options`.' }, message: { type: 'string' } },
    required: ['path', 'message'],
  };
  shareRepeatedParameters(document);
  shareCommonBranchProperties(document);
  shareRepeatedSchemas(document, Object.fromEntries(Object.entries(ECHOED_FIELD_NOTES).map(([name, note]) => [note, name])));
  shortenPlainUnions(document);
  titleTypedBranches(document);
  shareRepeatedExamples(document);
  return document;
}

let cached: OpenApiDocument | undefined;

/**
 * The document of the route table, built once per process (per Lambda cold start): generation walks
 * every schema, which is too slow to repeat per request.
 */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument();
  return cached;
}

/** The cached document with `servers` pointing at the URL the client used. */
export function openApiDocumentFor(baseUrl: string): OpenApiDocument {
  return withServer(openApiDocument(), baseUrl);
}

/** Writes the document (without `servers`, added per request) where the docs function reads it. */
export function writeOpenApiDocument(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(openApiDocument()));
}
