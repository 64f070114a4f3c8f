import { describe, expect, it } from 'vitest';
import { dropSafeIntegerBounds, mergeTwinSchemas, shareCommonBranchProperties, shareRepeatedExamples, shareRepeatedParameters, shareRepeatedSchemas } from '../../../shared/openapi/compact.js';

type Json = Record<string, unknown>;

const when = { type: 'string', format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$' };

/** A document whose two bodies both use the date-time shape, once with its own description. */
function documentWithRepeats(): Json {
  const body = (description?: string) => ({
    content: { 'application/json': { schema: { type: 'object', properties: { start: description ? { description, ...when } : { ...when }, end: { ...when } } } } },
  });
  return {
    paths: {
      '/a': { post: { operationId: 'a', parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }], requestBody: body('When it starts.'), responses: {} } },
      '/b': { post: { operationId: 'b', parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }], requestBody: body(), responses: {} } },
    },
    components: { schemas: {} },
  };
}

describe('shareRepeatedSchemas', () => {
  it('moves a repeated shape into one component and keeps each use\'s own description next to its $ref', () => {
    // Prepare
    const document = documentWithRepeats();

    // Act
    shareRepeatedSchemas(document);

    // Assess
    const schemas = (document.components as { schemas: Json }).schemas;
    expect(schemas.DateTime).toEqual(when);
    const text = JSON.stringify(document.paths);
    expect(text).not.toContain('date-time');
    expect(text).toContain('{"$ref":"#/components/schemas/DateTime","description":"When it starts."}');
  });
});

describe('shareRepeatedParameters', () => {
  it('refers every operation to one shared parameter', () => {
    // Prepare
    const document = documentWithRepeats();

    // Act
    shareRepeatedParameters(document);

    // Assess
    expect((document.components as { parameters: Json }).parameters).toEqual({ IdempotencyKeyHeader: { name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } } });
    expect(JSON.stringify(document.paths).split('#/components/parameters/IdempotencyKeyHeader').length - 1).toBe(2);
  });
});

describe('shareRepeatedExamples', () => {
  it('moves an example two operations show into components.examples', () => {
    // Prepare
    const example = { data: { id: '6740f1a2c3d4e5f601234567', name: 'Spring Gala 2027', description: 'An evening of music and dinner for our members and friends.', start: '2027-04-17T19:00:00.000Z', end: '2027-04-17T23:00:00.000Z' } };
    const answer = () => ({ 200: { description: 'OK', content: { 'application/json': { schema: {}, example: structuredClone(example) } } } });
    const document: Json = { paths: { '/a': { get: { operationId: 'getThing', responses: answer() }, patch: { operationId: 'updateThing', responses: answer() } } } };

    // Act
    shareRepeatedExamples(document);

    // Assess
    expect((document.components as { examples: Json }).examples).toEqual({ GetThing: { value: example } });
    expect(JSON.stringify(document.paths)).not.toContain('Spring Gala');
  });
});

describe('shareCommonBranchProperties', () => {
  it('moves the fields every closed branch declares alike into a base the branches take through allOf, still closed', () => {
    // Prepare
    const common = { id: { type: 'string', description: 'Present on stored elements; ignored on input.' }, prompt: { type: 'string', minLength: 1, maxLength: 2000 }, helperText: { type: 'string', maxLength: 5000 } };
    const branch = (type: string, extra: Json) => ({ type: 'object', properties: { ...common, type: { const: type }, ...extra }, required: ['prompt', 'type'], additionalProperties: false });
    const document: Json = {
      components: { schemas: { Element: { oneOf: [branch('Text', { placeholder: { type: 'string' } }), branch('Number', { minValue: { type: 'number' } }), branch('Date', {})] } } },
    };

    // Act
    shareCommonBranchProperties(document);

    // Assess
    const schemas = (document.components as { schemas: Record<string, Json> }).schemas;
    expect(schemas.ElementBase).toEqual({ type: 'object', properties: common, required: ['prompt'] });
    expect((schemas.Element as { oneOf: Json[] }).oneOf[0]).toEqual({
      allOf: [{ $ref: '#/components/schemas/ElementBase' }],
      type: 'object',
      properties: { type: { const: 'Text' }, placeholder: { type: 'string' } },
      required: ['type'],
      unevaluatedProperties: false,
    });
  });
});

describe('mergeTwinSchemas', () => {
  it('merges an answer twin that differs only by closed objects, and keeps real differences apart', () => {
    // Prepare
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const document: Json = {
      paths: { '/a': { get: { responses: { 200: { content: { 'application/json': { schema: ref('PaymentOutput') } } } } } } },
      components: {
        schemas: {
          Refund: { type: 'object', properties: { amount: { type: 'integer' } }, required: ['amount'] },
          Payment: { type: 'object', properties: { refunds: { type: 'array', items: ref('Refund') } } },
          RefundOutput: { type: 'object', properties: { amount: { type: 'integer' } }, required: ['amount'], additionalProperties: false },
          PaymentOutput: { type: 'object', properties: { refunds: { type: 'array', items: ref('RefundOutput') } }, additionalProperties: false },
          Other: { type: 'object', properties: { amount: { type: 'integer' } }, required: ['amount', 'currency'] },
        },
      },
    };

    // Act
    mergeTwinSchemas(document);

    // Assess
    expect(Object.keys((document.components as { schemas: Json }).schemas)).toEqual(['Refund', 'Payment', 'Other']);
    expect(JSON.stringify(document.paths)).toContain('#/components/schemas/Payment"');
  });

  it('keeps apart what an answer promises beyond its request: defaulted fields required, UTC-only date-times', () => {
    // Prepare
    const document: Json = {
      components: {
        schemas: {
          Image: { type: 'object', properties: { width: { type: 'number', default: 100 } } },
          ImageOutput: { type: 'object', properties: { width: { type: 'number', default: 100 } }, required: ['width'], additionalProperties: false },
          DateTime: { type: 'string', format: 'date-time', pattern: '^\\d{4}T(Z|[+-]\\d\\d)$' },
          DateTimeOutput: { ...when },
        },
      },
    };

    // Act
    mergeTwinSchemas(document);

    // Assess
    expect(Object.keys((document.components as { schemas: Json }).schemas)).toEqual(['Image', 'ImageOutput', 'DateTime', 'DateTimeOutput']);
  });
});

describe('dropSafeIntegerBounds', () => {
  it('drops the safe-integer bounds zod writes on every integer and keeps real bounds', () => {
    // Prepare
    const schema: Json = {
      type: 'object',
      properties: {
        count: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        delta: { type: ['integer', 'null'], minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
        limit: { type: 'integer', minimum: 1, maximum: 100 },
      },
    };

    // Act
    dropSafeIntegerBounds(schema);

    // Assess
    expect(schema.properties).toEqual({ count: { type: 'integer', minimum: 0 }, delta: { type: ['integer', 'null'] }, limit: { type: 'integer', minimum: 1, maximum: 100 } });
  });
});
