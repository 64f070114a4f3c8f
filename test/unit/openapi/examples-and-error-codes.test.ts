import { describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../../shared/http/route.js';
import { routeTable } from '../../../shared/http/routes.js';
import { openApiDocument } from '../../../shared/openapi/document.js';
import { ERROR_CODES, errorCodesOf } from '../../../shared/openapi/error-codes.js';
import { errorResponseKeysOf, errorStatusesOf } from '../../../shared/openapi/error-responses.js';
import { answerViolations } from '../../support/documented-schema.js';
import { GATEWAY_ERRORS, METHOD_NOT_ALLOWED } from '../../../shared/http/gateway-responses.js';
import { BAD_REQUEST, CLIENT_ERRORS } from '../../../bin/local/server.js';

type Json = Record<string, unknown>;
interface Media {
  schema?: Json;
  example?: unknown;
  examples?: Record<string, { $ref?: string; value?: unknown }>;
}
interface Operation {
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { $ref?: string; content?: Record<string, Media> }>;
}

const document = openApiDocument() as unknown as Json & { paths: Record<string, Record<string, Operation>>; components: Json };

function resolve<T>(value: T | { $ref: string }): T {
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string') return value as T;
  return ref.replace(/^#\//, '').split('/').reduce<unknown>((node, segment) => (node as Json)[segment], document) as T;
}

/** The example of a media type: inline, or the shared one it refers to. */
function exampleOf(media: Media | undefined): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const [first] = Object.values(media.examples ?? {});
  return first ? resolve<{ value?: unknown }>(first as { $ref: string }).value : undefined;
}

function operationOf(route: RouteDefinition): Operation {
  return document.paths[route.path]?.[route.method.toLowerCase()] as Operation;
}

/** The `error.code` (or flat `error`) values one error response allows, over the branches of a `oneOf`. */
function codesOfResponse(response: { $ref?: string }): string[] {
  const schema = resolve<{ content: Record<string, Media> }>(response as { $ref: string }).content['application/json']?.schema as { allOf?: Json[]; oneOf?: { allOf: Json[] }[] };
  return (schema.oneOf ?? [schema as { allOf: Json[] }]).flatMap((branch) => {
    const narrowing = branch.allOf[1] as { properties: { error: { enum?: string[]; const?: string; properties?: { code: { enum: string[] } } } } };
    const { error } = narrowing.properties;
    return error.properties?.code.enum ?? error.enum ?? (error.const === undefined ? [] : [error.const]);
  });
}

const jsonBodyRoutes = routeTable.filter((route) => route.body);
const jsonAnswerRoutes = routeTable.filter((route) => route.success.schema && !route.success.contentTypes && route.success.status !== 204);

describe('OpenAPI examples', () => {
  it.each(jsonBodyRoutes.map((route) => [route.operation, route] as const))('%s: the request body example is valid for its own schema', (_name, route) => {
    // Act
    const example = exampleOf(operationOf(route).requestBody?.content['application/json']);
    const parsed = route.body?.safeParse(example);

    // Assess
    expect(example).toBeDefined();
    expect(parsed?.error?.issues ?? []).toEqual([]);
  });

  it.each(jsonAnswerRoutes.map((route) => [route.operation, route] as const))('%s: the success example is valid for its own schema', (_name, route) => {
    // Act
    const example = exampleOf(operationOf(route).responses[String(route.success.status)]?.content?.['application/json']);
    const parsed = route.success.schema?.safeParse(example);

    // Assess
    expect(example).toBeDefined();
    expect(parsed?.error?.issues ?? []).toEqual([]);
  });

  it('shows realistic values, not placeholders', () => {
    // Act
    const examples = [...jsonBodyRoutes.map((route) => exampleOf(operationOf(route).requestBody?.content['application/json'])), ...jsonAnswerRoutes.map((route) => exampleOf(operationOf(route).responses[String(route.success.status)]?.content?.['application/json']))];
    const text = JSON.stringify(examples);

    // Assess
    expect(text).not.toContain('"string"');
    expect(text).not.toContain('9007199254740991');
  });

  it('gives a field the value the resource holding it means (an image URL is no webhook URL, a pending upload has no image yet)', () => {
    // Prepare
    const answerOf = (operation: string) => {
      const route = routeTable.find((candidate) => candidate.operation === operation) as RouteDefinition;
      return exampleOf(operationOf(route).responses[String(route.success.status)]?.content?.['application/json']) as { data: Record<string, unknown> };
    };

    // Act
    const image = answerOf('registerImage').data;
    const upload = answerOf('createImageUpload').data;
    const webhook = answerOf('createWebhookEndpoint').data;

    // Assess
    expect(image.url).toMatch(/^https:\/\/cdn\.example\.com\/images\/.+\.png$/);
    expect(image.filename).toMatch(/\.png$/);
    expect(image.contentType).toBe('image/png');
    expect(upload).toMatchObject({ status: 'pending', imageId: null, filename: expect.stringMatching(/\.png$/) });
    expect((upload.upload as { url: string }).url).not.toBe(webhook.url);
  });

  it('has an example on every error response', () => {
    for (const response of Object.values(document.components.responses as Record<string, { content: Record<string, Media> }>)) {
      // Assess
      expect(exampleOf(response.content['application/json'])).toBeDefined();
    }
  });
});

describe('OpenAPI error codes', () => {
  it('narrows error.code on every error response of every operation to the codes of that status', () => {
    for (const route of routeTable) {
      for (const { key, statuses } of errorResponseKeysOf(route)) {
        // Act
        const codes = codesOfResponse(operationOf(route).responses[key] as { $ref: string });

        // Assess
        expect(codes, `${route.operation} ${key}`).toEqual(statuses.flatMap((status) => errorCodesOf(route, status)));
        expect(codes.length, `${route.operation} ${key}`).toBeGreaterThan(0);
      }
    }
  });

  it('documents every error status of every operation, 500 and 503 together as 5XX', () => {
    for (const route of routeTable) {
      // Act
      const keys = errorResponseKeysOf(route);

      // Assess
      expect(keys.flatMap(({ statuses }) => statuses).sort(), route.operation).toEqual(errorStatusesOf(route));
      for (const { key } of keys) expect(operationOf(route).responses[key], `${route.operation} ${key}`).toBeDefined();
      if (route.auth === 'key') expect(keys.find(({ key }) => key === '5XX')?.statuses, route.operation).toEqual([500, 503]);
    }
  });

  it('lists every envelope code the API has on ErrorEnvelope', () => {
    // Act
    const envelope = (document.components.schemas as Record<string, { properties: { error: { properties: { code: { enum: string[] } } } } }>).ErrorEnvelope;

    // Assess
    expect(envelope?.properties.error.properties.code.enum).toEqual(Object.keys(ERROR_CODES));
  });

  it('lists on ErrorEnvelope the codes answered before any operation runs: the gateway\'s and the local server\'s own refusals', () => {
    // Prepare
    const answered = [...Object.values(GATEWAY_ERRORS), METHOD_NOT_ALLOWED, ...Object.values(CLIENT_ERRORS), BAD_REQUEST].map(({ code }) => code);

    // Act
    const envelope = (document.components.schemas as Record<string, { properties: { error: { properties: { code: { enum: string[] } } } } }>).ErrorEnvelope;

    // Assess
    expect(answered).toContain('bad_request');
    for (const code of answered) expect(envelope?.properties.error.properties.code.enum, code).toContain(code);
  });

  it('answers idempotency_key_reused and conflict (the first request still running) on idempotent POSTs, conflict on If-Match routes, invalid_state only on state machines', () => {
    // Prepare
    const byOperation = new Map(routeTable.map((route) => [route.operation, route]));
    const codes409 = (operation: string) => errorCodesOf(byOperation.get(operation) as RouteDefinition, 409);

    // Assess
    expect(codes409('createForm')).toEqual(['conflict', 'idempotency_key_reused']);
    expect(codes409('finalizeInvoice')).toEqual(['conflict', 'invalid_state', 'idempotency_key_reused']);
    expect(codes409('updateCheckout')).toContain('conflict');
    expect(codes409('updateCheckout')).not.toContain('invalid_state');
    expect(errorCodesOf(byOperation.get('getForm') as RouteDefinition, 404)).toEqual(['not_found']);
    expect(errorCodesOf(byOperation.get('listPartnerEvents') as RouteDefinition, 404)).toEqual(['PARTNER_NOT_FOUND', 'NO_EVENTS_FOUND']);
  });

  it('answers conflict on every update (PATCH or PUT): a copy read before another write is 409, with or without a version', () => {
    // Prepare
    const updates = routeTable.filter((route) => route.method === 'PATCH' || route.method === 'PUT');

    // Act
    const withoutConflict = updates.filter((route) => !errorCodesOf(route, 409).includes('conflict')).map((route) => route.operation);

    // Assess
    expect(updates.map((route) => route.operation)).toContain('updateWebhookEndpoint');
    expect(withoutConflict).toEqual([]);
  });

  it('holds each 404 body of the partner listing to its own fields: the flat PARTNER_NOT_FOUND, and NO_EVENTS_FOUND with the empty page', () => {
    // Prepare: the bodies the server answers (test/integration/partner-events.test.ts).
    const notFound = { status: 404, error: 'PARTNER_NOT_FOUND', message: 'No partner found for referral code nope.' };
    const noEvents = { data: [], status: 404, error: 'NO_EVENTS_FOUND', message: 'No events found.', total: 0, page: 0, limit: 20, hasMore: false };
    const answer = (body: unknown) => answerViolations(document, '/partner/events', 'GET', 404, body);

    // Assess
    expect(answer(notFound)).toEqual([]);
    expect(answer(noEvents)).toEqual([]);
    expect(answer({ ...notFound, error: 'NO_EVENTS_FOUND' })).not.toEqual([]);
    expect(answer({ ...noEvents, error: 'PARTNER_NOT_FOUND' })).not.toEqual([]);
    expect(answer({ ...notFound, total: 0 })).not.toEqual([]);
    expect(answer({ ...noEvents, status: 200 })).not.toEqual([]);
  });

  it('answers invalid_state when completing an upload whose bytes have not arrived or that is already registered', () => {
    // Prepare
    const completeUpload = routeTable.find((route) => route.operation === 'completeImageUpload') as RouteDefinition;
    const body = { error: { code: 'invalid_state', message: 'No bytes were uploaded for this upload yet.' } };

    // Assess
    expect(errorCodesOf(completeUpload, 409)).toEqual(['conflict', 'invalid_state', 'idempotency_key_reused']);
    expect(answerViolations(document, completeUpload.path, 'POST', 409, body)).toEqual([]);
  });

  it('documents 503 service_unavailable on the public routes that read the datastore, and on no public route that cannot answer it', () => {
    // Prepare: the anonymous form routes read DynamoDB and answer its throttling with 503; the partner listing
    // answers it with its flat 500 (spec); health answers 200 `degraded`; the docs and the widget read no table.
    const publicRoutes = routeTable.filter((route) => route.auth === 'public');
    const unavailable = { error: { code: 'service_unavailable', message: 'The service is temporarily unavailable; retry shortly.' } };

    // Act
    const with503 = publicRoutes.filter((route) => errorStatusesOf(route).includes(503)).map((route) => route.operation);

    // Assess
    expect(with503.sort()).toEqual(['getPublicForm', 'submitFormResponse']);
    expect(answerViolations(document, '/forms/{formId}', 'GET', 503, unavailable)).toEqual([]);
    expect(answerViolations(document, '/forms/{formId}/responses', 'POST', 503, unavailable)).toEqual([]);
  });

  it('lists the bad-body answers of the writes that take no body (none or `{}` only)', () => {
    // Prepare
    const byOperation = new Map(routeTable.map((route) => [route.operation, route]));
    const noBody = ['finalizeInvoice', 'voidInvoice', 'rotateWebhookEndpointSecret', 'deleteCheckout'].map((operation) => byOperation.get(operation) as RouteDefinition);

    // Act
    const statuses = noBody.map((route) => errorStatusesOf(route));
    const codes400 = noBody.map((route) => errorCodesOf(route, 400));

    // Assess
    for (const listed of statuses) expect(listed).toEqual(expect.arrayContaining([400, 413, 415, 422]));
    for (const codes of codes400) expect(codes).toEqual(['invalid_json']);
  });
});

/**
 * Size budget of the document as /openapi.json serves it (without `servers`), in bytes: 258,517 before
 * the twins were merged and the repeats shared, 219,517 after, 222,186 with every bad-body answer listed
 * (README, OpenAPI "Size"; API.md's 150 KiB cap is not met). The budget leaves about 1% for new routes;
 * what pushes past it should be shared, not inlined. +31 for the convention that only an operation with
 * query parameters refuses one given twice (the others ignore their query string).
 */
// +132 bytes: the description of a payment's `paidAt`, which states the rule that refuses a future date.
// +141: the 409 of a webhook endpoint update (a stale `updatedAt`), the partner listing's flat 405 in its
// description, and an example on event image entries (they were shared as, and shown as, a `Cursor`).
// +63: what the server does, said where the text said otherwise (a form PATCH takes the stored `type` back,
// attendee answers to contact-property questions stay in the response, a disabled endpoint's deliveries fail).
// +478: the partner listing's query as the service takes it (integer page and limit, the sort, direction
// and filter values with their defaults, the required referral code, metaData filters as one exploded
// object) and the JSON body limit in the 413.
// +112: order-form fields dropped (not refused) on standalone forms, and JSON's UTF-8 charset (415 otherwise).
// +79: `If-Match: *` in the header's pattern and description; a failed request is not stored for replay.
// +17: `constructor` keys refused like `__proto__` (the input hygiene line).
// +678: components named by what they are (`FormEnvelope`, `YesNoFormElement`, `Text200`, `ReadOnlyDateTime`,
// `PropertyStatus`) instead of `Shared2`, `FormElement9`, `SubmitButtonText` on a fee's name, `Status3`; nullable
// plain types as `type: [T, "null"]` rather than `anyOf`.
// -2,518: each operation's own `If-Match` sentence (six wordings of what the shared header says once) and the
// lists' storage mechanics (partitions, Queries, batch reads) left out; what a client sees stays (cost at any depth).
// +71: a retry that meets its first request still running is 409 `conflict` with `Retry-After` (Idempotency-Key).
// -179: the partner listing says its 429 is the envelope (+119); no `pattern` on integer query parameters (-298).
// +189: generic field names named with their resource (`InvoiceStatus`, `PaymentMethod`, `RefundReason`, was `Status`,
// `Method`, `Reason`), bounded integers by their range (`Integer1To16384` for width and height, was `Height`), and
// one `Version` schema for the six resources (five wordings before), `ExpectedVersion` for the one an update sends back.
// +246: examples in context (an image's CDN URL and `.png` name, a pending upload with no image yet, an opaque cursor, a
// custom fee named "Service fee"), where they showed the webhook URL, `gala.jpg` beside `image/png` and "Spring Gala".
// -340: the health check's timestamp and an upload's times are the API's one date-time (`DateTimeOutput`), not a
// second UTC-only copy of the pattern (`UtcDateTime`).
// -799, from trying every operation in Swagger UI: coherent resource examples (an open invoice whose totals add up,
// a select property with options, an event whose minPrice is its required product's price), shared examples named
// by their resource (`Form`, was `CreateForm` under a GET), no example on ids (Swagger UI put it in every optional
// id filter: empty lists), no `default` on page numbers (sent beside a cursor: 400), the partner listing's demo
// referral code and an empty metaData filter prefilled, the checkouts' `filters` described on the parameter.
// +374: element answers show the element's id, the Other option and the logic group their change made, an upload
// the headers to send; a 415 example names no JSON, the 404 description says the workspace only of `/v1`.
// +941: each branch of a union told apart by its `type` is titled with it: Swagger UI lists the 14 form element types as
// `#7 Yes/No`, not `#7` (and the rich-text nodes and marks, the cart references, alike).
const DOCUMENT_BUDGET_BYTES = 223_909;

describe('OpenAPI document size', () => {
  it(`stays within ${DOCUMENT_BUDGET_BYTES} bytes`, () => {
    // Act
    const bytes = Buffer.byteLength(JSON.stringify(openApiDocument()));

    // Assess
    expect(bytes).toBeLessThanOrEqual(DOCUMENT_BUDGET_BYTES);
  });

  it('writes each date-time pattern, the id pattern and the Idempotency-Key header once', () => {
    // Prepare
    const dateTimes: string[] = [];
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (typeof value !== 'object' || value === null) return;
      if ((value as Json).format === 'date-time') dateTimes.push(JSON.stringify({ ...value, description: undefined }));
      Object.values(value).forEach(visit);
    };

    // Act
    visit(document);
    const text = JSON.stringify(document);

    // Assess
    expect(dateTimes.length).toBeGreaterThan(0);
    expect(new Set(dateTimes).size).toBe(dateTimes.length);
    expect(text.split('"pattern":"^[a-f0-9]{24}$"').length - 1).toBe(1);
    expect(text.split('"name":"Idempotency-Key"').length - 1).toBe(1);
  });
});
