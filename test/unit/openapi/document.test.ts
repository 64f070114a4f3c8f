import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { API_VERSION } from '../../../shared/config.js';
import { defineRoute, type RouteDefinition } from '../../../shared/http/route.js';
import { routeTable } from '../../../shared/http/routes.js';
import { idParams } from '../../../shared/http/schemas.js';
import { BEARER_SCHEME, buildOpenApiDocument, openApiDocument, openApiDocumentFor } from '../../../shared/openapi/document.js';
import { FLAT_CODE_BODIES } from '../../../shared/openapi/error-codes.js';
import { DOCS_ASSETS } from '../../../shared/http/routes/docs.js';
import { PARTNER_LISTING } from '../../../shared/partners/partner-listing-plan.js';

type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  security: Json[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Json };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}

const document = openApiDocument() as unknown as Json & { paths: Record<string, Record<string, Operation>>; components: Json };

/** Every `$ref` string anywhere in a JSON value. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => (key === '$ref' && typeof child === 'string' ? [child] : refsIn(child)));
}

function resolvePointer(pointer: string): unknown {
  return pointer.replace(/^#\//, '').split('/').reduce<unknown>((node, segment) => (node as Json | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/** A parameter or response as a reader sees it: through its `$ref` to the shared component. */
function deref<T>(value: T | { $ref: string }): T {
  return typeof (value as { $ref?: unknown }).$ref === 'string' ? (resolvePointer((value as { $ref: string }).$ref) as T) : (value as T);
}

/** The operation of `route`, its shared parameters and responses resolved. */
function operationOf(route: RouteDefinition): Operation | undefined {
  const operation = document.paths[route.path]?.[route.method.toLowerCase()];
  if (!operation) return undefined;
  return {
    ...operation,
    ...(operation.parameters ? { parameters: operation.parameters.map(deref) } : {}),
    responses: Object.fromEntries(Object.entries(operation.responses).map(([status, response]) => [status, deref(response)])),
  };
}

/** A small route factory: a key-protected POST with a path id and a JSON body. */
function sampleRoute(overrides: Partial<RouteDefinition> = {}): RouteDefinition {
  return defineRoute({
    group: 'forms',
    operation: 'sampleCreate',
    method: 'POST',
    path: '/v1/samples/{sampleId}/things',
    auth: 'key',
    tags: ['Samples'],
    summary: 'Create a thing',
    params: idParams('sampleId'),
    body: z.object({ name: z.string() }),
    success: { status: 201, description: 'Created.', schema: z.object({ data: z.object({ id: z.string() }) }) },
    ...overrides,
  } as RouteDefinition);
}

describe('GET /openapi.json document', () => {
  it('is OpenAPI 3.1 with the interface version', () => {
    // Assess
    expect(document.openapi).toBe('3.1.0');
    expect((document.info as Json).version).toBe(API_VERSION);
  });

  it('records the image size choice API.md leaves open: 4 MiB in one request, larger images in two steps', () => {
    // Prepare
    const register = routeTable.find((route) => route.operation === 'registerImage') as RouteDefinition;

    // Assess
    expect((document.info as Json).description).toEqual(expect.stringContaining('one request carries at most 4 MiB'));
    expect((document.info as Json).description).toEqual(expect.stringContaining('`POST /v1/assets/images/uploads` (up to 25 MiB)'));
    expect(document.paths['/v1/assets/images/uploads']?.post).toBeDefined();
    expect(document.paths['/v1/assets/images/uploads/{uploadId}/complete']?.post).toBeDefined();
    expect(operationOf(register)?.responses['413']).toBeDefined();
  });

  it('documents every route of the route table under its path and method, with its operation id', () => {
    // Act
    const missing = routeTable.filter((route) => operationOf(route)?.operationId !== route.operation);

    // Assess
    expect(missing.map((route) => `${route.method} ${route.path}`)).toEqual([]);
  });

  it('documents nothing that is not in the route table', () => {
    // Prepare
    const expected = new Set(routeTable.map((route) => `${route.method.toLowerCase()} ${route.path}`));

    // Act
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));

    // Assess
    expect(documented.sort()).toEqual([...expected].sort());
  });

  it('has unique operation ids', () => {
    // Act
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));

    // Assess
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares every path parameter as a required path parameter', () => {
    for (const route of routeTable) {
      // Prepare
      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);

      // Act
      const declared = (operationOf(route)?.parameters ?? []).filter((parameter) => parameter.in === 'path');

      // Assess
      expect(declared.map((parameter) => parameter.name).sort(), route.operation).toEqual(names.sort());
      expect(declared.every((parameter) => parameter.required === true), route.operation).toBe(true);
    }
  });

  it('requires the bearer key on key routes and nothing on public routes', () => {
    for (const route of routeTable) {
      // Act
      const security = operationOf(route)?.security ?? document.security;

      // Assess
      expect(security, route.operation).toEqual(route.auth === 'key' ? [{ [BEARER_SCHEME]: [] }] : []);
    }
    expect((document.components.securitySchemes as Json)[BEARER_SCHEME]).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents 401 on every key route and the error envelope on every error (or the body of its own a flat code has)', () => {
    // Prepare
    const bodies = ['#/components/schemas/ErrorEnvelope', '#/components/schemas/FlatError', ...Object.values(FLAT_CODE_BODIES).map(({ schema }) => `#/components/schemas/${schema}`)];
    for (const route of routeTable) {
      // Act
      const responses = operationOf(route)?.responses ?? {};

      // Assess
      if (route.auth === 'key') expect(responses['401'], route.operation).toBeDefined();
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        const schema = response.content?.['application/json']?.schema as { allOf?: { $ref?: string }[]; oneOf?: { allOf?: { $ref?: string }[] }[] };
        for (const branch of schema.oneOf ?? [schema]) expect(bodies, `${route.operation} ${status}`).toContain(branch.allOf?.[0]?.$ref);
      }
    }
  });

  it('documents the success status of every route', () => {
    for (const route of routeTable) {
      // Assess
      expect(operationOf(route)?.responses[String(route.success.status)], route.operation).toBeDefined();
    }
  });

  it('resolves every $ref inside the document', () => {
    // Act
    const dangling = [...new Set(refsIn(document))].filter((ref) => resolvePointer(ref) === undefined);

    // Assess
    expect(dangling).toEqual([]);
  });

  it('is plain JSON', () => {
    // Assess
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });
});

describe('buildOpenApiDocument', () => {
  it('documents the statuses implied by auth, path parameters and a JSON body', () => {
    // Prepare
    const route = sampleRoute();

    // Act
    const built = buildOpenApiDocument([route]) as unknown as { paths: Record<string, Record<string, Operation>> };

    // Assess
    const operation = built.paths['/v1/samples/{sampleId}/things']?.post;
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '5XX']);
    expect(operation?.requestBody?.content['application/json']).toBeDefined();
    expect(operation?.parameters?.some((parameter) => parameter.name === 'Idempotency-Key' && parameter.in === 'header')).toBe(true);
  });

  it('declares If-Match with its 409 and 422 on routes that honour it, and only there', () => {
    // Prepare
    const versioned = sampleRoute({ method: 'PATCH', ifMatch: true, success: { status: 200, description: 'OK.' } });
    const plain = sampleRoute({ method: 'PATCH', operation: 'plainPatch', path: '/v1/plain/{sampleId}', success: { status: 200, description: 'OK.' } });

    // Act
    const built = buildOpenApiDocument([versioned, plain]) as unknown as { paths: Record<string, Record<string, Operation>> };

    // Assess
    const withIfMatch = built.paths['/v1/samples/{sampleId}/things']?.patch;
    expect(withIfMatch?.parameters?.some((parameter) => parameter.name === 'If-Match' && parameter.in === 'header')).toBe(true);
    expect(withIfMatch?.responses['409']).toBeDefined();
    const withoutIfMatch = built.paths['/v1/plain/{sampleId}']?.patch;
    expect(withoutIfMatch?.parameters?.some((parameter) => parameter.name === 'If-Match') ?? false).toBe(false);
    expect(withoutIfMatch?.responses['409']).toBeUndefined();
  });

  it('documents a 422 for a bad query when the route says so', () => {
    // Prepare
    const route = sampleRoute({ method: 'GET', body: undefined, query: z.object({ page: z.string().optional() }), queryErrorCode: 'validation_failed', success: { status: 200, description: 'OK.' } });

    // Act
    const built = buildOpenApiDocument([route]) as unknown as { paths: Record<string, Record<string, Operation>> };

    // Assess
    const responses = built.paths['/v1/samples/{sampleId}/things']?.get?.responses ?? {};
    expect(responses['422']).toBeDefined();
    expect(responses['400']).toBeUndefined();
    expect(responses['403']).toBeUndefined();
  });

  it('documents raw bodies by their content types', () => {
    // Prepare
    const route = sampleRoute({ body: undefined, rawBody: { contentTypes: ['image/png', 'image/jpeg'], maxBytes: 1024 } });

    // Act
    const built = buildOpenApiDocument([route]) as unknown as { paths: Record<string, Record<string, Operation>> };

    // Assess
    expect(Object.keys(built.paths['/v1/samples/{sampleId}/things']?.post?.requestBody?.content ?? {})).toEqual(['image/png', 'image/jpeg']);
  });

  it('lists the empty 304 of the routes that revalidate with If-None-Match (the document itself), and only there', () => {
    // Prepare
    const route = sampleRoute({ method: 'GET', body: undefined, notModified: true });

    // Act
    const built = buildOpenApiDocument([route, sampleRoute({ operation: 'other', path: '/v1/others', params: undefined })]) as unknown as { paths: Record<string, Record<string, Operation>> };
    const notModified = routeTable.filter((candidate) => operationOf(candidate)?.responses['304']).map((candidate) => candidate.operation);

    // Assess
    expect(built.paths['/v1/samples/{sampleId}/things']?.get?.responses['304']).toEqual({ description: expect.stringContaining('If-None-Match') });
    expect(built.paths['/v1/others']?.post?.responses['304']).toBeUndefined();
    expect(notModified).toEqual(['getOpenApiDocument']);
  });

  it('lists every content type a documentation asset is served with', () => {
    // Act
    const content = document.paths['/docs/{asset}']?.get?.responses['200']?.content ?? {};

    // Assess
    expect(Object.keys(content).sort()).toEqual([...new Set(Object.values(DOCS_ASSETS))].sort());
    expect(Object.keys(content)).toContain('text/css; charset=utf-8');
  });

  it('points servers at the URL the client used', () => {
    // Act
    const served = openApiDocumentFor('https://api.example.com/prod');

    // Assess
    expect(served.servers).toEqual([{ url: 'https://api.example.com/prod' }]);
    expect(openApiDocument().servers).toBeUndefined();
  });
});

describe('timestamps in the document', () => {
  /** The date-time formats a property schema can take: through `$ref`s and the branches of a nullable union. */
  function formatsOf(schema: unknown): unknown[] {
    const node = deref(schema as Json) as Json;
    const branches = [...((node.anyOf as Json[] | undefined) ?? []), ...((node.allOf as Json[] | undefined) ?? [])].filter((branch) => branch.type !== 'null');
    return [...(node.type === 'null' ? [] : [node.format]), ...branches.flatMap(formatsOf)].filter((format) => format !== undefined);
  }

  it('types every createdAt and updatedAt an answer carries as a date-time (images: epoch milliseconds), never as bare text', () => {
    // Prepare
    const stamped = new Map<string, unknown>();
    const seen = new Set<unknown>();
    const visit = (value: unknown, at: string): void => {
      if (Array.isArray(value)) return value.forEach((item, index) => visit(item, `${at}[${index}]`));
      if (typeof value !== 'object' || value === null || seen.has(value)) return;
      seen.add(value);
      const ref = (value as Json).$ref;
      if (typeof ref === 'string') return visit(resolvePointer(ref), ref);
      const properties = (value as Json).properties as Record<string, unknown> | undefined;
      for (const name of ['createdAt', 'updatedAt']) if (properties?.[name]) stamped.set(`${at}.properties.${name}`, properties[name]);
      Object.entries(value).forEach(([key, child]) => visit(child, `${at}.${key}`));
    };

    // Act
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) if (status.startsWith('2')) visit(deref(response).content, `${method} ${path} ${status}`);
      }
    }
    // Images keep the spec's epoch milliseconds, an integer: what must not be is free text.
    const loose = [...stamped].filter(([, schema]) => !formatsOf(schema).includes('date-time') && (deref(schema as Json) as Json).type !== 'integer').map(([at]) => at);

    // Assess
    expect([...stamped.keys()]).toContain('#/components/schemas/Form.properties.createdAt');
    expect(loose).toEqual([]);
  });
});

describe('the partner listing\'s query in the document', () => {
  it('is the query the service reads: every reserved key typed with its values and defaults, the referral code required, other keys as metaData', () => {
    // Prepare
    const parameters = (document.paths['/partner/events']?.get?.parameters ?? []).map((parameter) => deref(parameter) as unknown as Json & { name: string; schema: Json });
    const byName = new Map(parameters.map((parameter) => [parameter.name, parameter]));

    // Assess
    expect([...byName.keys()].sort()).toEqual([...PARTNER_LISTING.reservedKeys, 'metaData'].sort());
    expect(byName.get('referral_code')).toMatchObject({ in: 'query', required: true });
    // No default in the schema (the description gives 0): Swagger UI would send it beside a `cursor`, which is refused.
    expect(byName.get('page')?.schema).toEqual({ type: 'integer', minimum: 0 });
    expect(byName.get('page')?.description).toContain('default 0');
    expect(byName.get('limit')?.schema).toMatchObject({ type: 'integer', minimum: 1, default: PARTNER_LISTING.defaultLimit });
    expect(byName.get('sort')?.schema).toEqual({ type: 'string', enum: [...PARTNER_LISTING.sorts], default: 'start' });
    expect(byName.get('direction')?.schema).toEqual({ type: 'string', enum: [...PARTNER_LISTING.directions], default: 'asc' });
    expect(byName.get('filter')?.schema).toEqual({ type: 'string', enum: [...PARTNER_LISTING.filters], default: 'all' });
    expect(byName.get('metaData')).toMatchObject({ style: 'form', explode: true, schema: { type: 'object', additionalProperties: { type: 'string' } } });
  });
});

describe('the document in Swagger UI\'s "Try it out"', () => {
  /** Every query parameter of every operation, resolved, with the schema it refers to. */
  const queryParameters = () => routeTable.flatMap((route) => (operationOf(route)?.parameters ?? [])
    .map((parameter) => ({ route, parameter: parameter as { name: string; in: string; required?: boolean; example?: unknown; description?: string; schema: Json } }))
    .filter(({ parameter }) => parameter.in === 'query'));

  it('prefills no id filter: an example id in one listed nothing (Swagger UI sends the example)', () => {
    // Act
    const idFilters = queryParameters().filter(({ parameter }) => (deref(parameter.schema) as Json).pattern === '^[a-f0-9]{24}$');
    const prefilled = idFilters.filter(({ parameter }) => parameter.example !== undefined || (deref(parameter.schema) as Json).example !== undefined);

    // Assess
    expect(idFilters.map(({ route }) => route.operation)).toEqual(expect.arrayContaining(['listInvoices', 'listPayouts', 'listCheckouts', 'getPayoutBalance']));
    expect(prefilled.map(({ route, parameter }) => `${route.operation} ${parameter.name}`)).toEqual([]);
  });

  it('sends no page number beside a cursor: a page parameter has no default (Swagger UI sends defaults), its description gives it', () => {
    // Act
    const pages = queryParameters().filter(({ parameter }) => ['page', 'pageNumber'].includes(parameter.name));

    // Assess
    expect(pages.length).toBeGreaterThan(5);
    for (const { route, parameter } of pages) {
      expect(deref(parameter.schema), `${route.operation} ${parameter.name}`).not.toHaveProperty('default');
      expect(parameter.description, route.operation).toContain('default 0');
    }
  });

  it('lists the demo partner\'s events as prefilled: its referral code, and no metaData filter', () => {
    // Act
    const listing = queryParameters().filter(({ route }) => route.operation === 'listPartnerEvents');
    const byName = new Map(listing.map(({ parameter }) => [parameter.name, parameter]));

    // Assess
    expect(byName.get('referral_code')?.example).toBe('DEMO-PARTNER');
    expect(byName.get('metaData')?.example).toEqual({});
  });

  it('describes every query parameter on the parameter, where Swagger UI shows it', () => {
    // Act
    const undescribedFilters = queryParameters().filter(({ parameter }) => parameter.name === 'filters' && !parameter.description);

    // Assess
    expect(undescribedFilters).toEqual([]);
    for (const { route, parameter } of queryParameters()) expect(deref(parameter.schema) as Json, `${route.operation} ${parameter.name}`).not.toHaveProperty('description', parameter.description);
  });

  it('names the shared examples by the resource they show, as the examples menu lists them', () => {
    // Act
    const names = Object.keys(document.components.examples as Json);

    // Assess
    expect(names).toEqual(expect.arrayContaining(['Form', 'Invoice', 'Event', 'Property']));
    expect(names.filter((name) => /^(Create|Get|Update|List)[A-Z]/.test(name))).toEqual([]);
  });

  it('shows what each element change answers: the element with its id, the Other option turned on, the logic group added', () => {
    // Prepare
    const answer = (operation: string) => {
      const route = routeTable.find((candidate) => candidate.operation === operation) as RouteDefinition;
      const media = document.paths[route.path]?.[route.method.toLowerCase()]?.responses[String(route.success.status)]?.content?.['application/json'] as { example?: { data: Json }; examples?: Record<string, { $ref: string }> };
      const shared = Object.values(media.examples ?? {})[0];
      return (media.example ?? (resolvePointer((shared as { $ref: string }).$ref) as { value: { data: Json } }).value).data;
    };

    // Assess
    for (const operation of ['addFormElement', 'updateFormElement', 'toggleElementOther', 'addLogicRule', 'moveFormElement']) {
      expect(answer(operation).id, operation).toMatch(/^[a-f0-9]{24}$/);
    }
    expect(answer('toggleElementOther')).toMatchObject({ type: 'Select One or "Other"', otherPrompt: expect.any(String) });
    expect(answer('addLogicRule').logicGroups).toHaveLength(1);
    expect((answer('createImageUpload').upload as { headers: Json }).headers).toHaveProperty('Content-Type');
  });

  it('shows resources whose fields agree: an invoice\'s totals and payments, an event\'s minPrice, a property\'s options', () => {
    // Prepare
    const examples = document.components.examples as Record<string, { value: { data: Record<string, unknown> } }>;
    const invoice = examples.Invoice?.value.data as { status: string; number: string | null; subtotal: number; taxTotal: number; total: number; amountPaid: number; amountDue: number; payments: { amount: number; status: string }[] };
    const event = examples.Event?.value.data as { start: string; end: string; minPrice: number; products: { price: number; required?: boolean }[] };
    const property = examples.Property?.value.data as { type: string; options?: unknown[] };

    // Assess
    expect(invoice.total).toBe(invoice.subtotal + invoice.taxTotal);
    expect(invoice.amountPaid).toBe(invoice.payments.filter((payment) => payment.status === 'succeeded').reduce((sum, payment) => sum + payment.amount, 0));
    expect(invoice.amountDue).toBe(invoice.total - invoice.amountPaid);
    expect(invoice.status === 'draft').toBe(invoice.number === null);
    expect(event.minPrice).toBe(Math.min(...event.products.filter((product) => product.required).map((product) => product.price)));
    expect(Date.parse(event.end)).toBeGreaterThan(Date.parse(event.start));
    expect(property.options === undefined || ['Select One', 'Select Multiple'].includes(property.type)).toBe(true);
  });
});
