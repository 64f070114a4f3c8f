import { describe, expect, it } from 'vitest';
import { dropPatternsOnNumbers, dropSafeIntegerBounds, mergeTwinSchemas, shareCommonBranchProperties, shareRepeatedExamples, shareRepeatedParameters, shareRepeatedSchemas, shortenPlainUnions, titleTypedBranches } from '../../../shared/openapi/compact.js';

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
    expect(schemas.UtcDateTime).toEqual(when);
    const text = JSON.stringify(document.paths);
    expect(text).not.toContain('date-time');
    expect(text).toContain('{"$ref":"#/components/schemas/UtcDateTime","description":"When it starts."}');
  });

  it('names a shape by what it is: an envelope, a union branch by its type, a field\'s name when every use has it, else the shape', () => {
    // Prepare
    const text200 = () => ({ type: 'string', minLength: 1, maxLength: 200 });
    const slug = () => ({ type: 'string', maxLength: 80, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' });
    const yesNo = () => ({ type: 'object', properties: { type: { type: 'string', const: 'Yes/No' }, yesRequired: { type: 'boolean' } }, required: ['type'] });
    const envelope = () => ({ type: 'object', properties: { data: { $ref: '#/components/schemas/Thing' } }, required: ['data'] });
    const answer = () => ({ 200: { description: 'OK', content: { 'application/json': { schema: envelope() } } } });
    const document: Json = {
      paths: { '/a': { get: { operationId: 'getThing', responses: answer() }, patch: { operationId: 'updateThing', responses: answer() } } },
      components: {
        schemas: {
          Thing: { type: 'object', properties: { name: text200(), label: text200(), slug: slug() } },
          Fee: { type: 'object', properties: { name: text200(), title: text200(), slug: slug() } },
          Event: { type: 'object', properties: { title: text200(), subtitle: text200(), slug: slug() } },
          Element: { oneOf: [yesNo(), { type: 'object', properties: { type: { type: 'string', const: 'Text' } } }] },
          ElementOutput: { oneOf: [yesNo(), { type: 'object', properties: { type: { type: 'string', const: 'Email' } } }] },
        },
      },
    };

    // Act
    shareRepeatedSchemas(document);

    // Assess
    const schemas = (document.components as { schemas: Json }).schemas;
    expect(schemas.ThingEnvelope).toEqual(envelope());
    expect(schemas.YesNoElement).toEqual(yesNo());
    // Fields named name, label, title and subtitle share a shape: the shape names it. Every use of the other is a `slug`.
    expect(schemas.Text200).toEqual(text200());
    expect(schemas.Slug).toEqual(slug());
    expect(Object.keys(schemas).sort()).toEqual(['Element', 'ElementOutput', 'Event', 'Fee', 'Slug', 'Text200', 'Thing', 'ThingEnvelope', 'YesNoElement']);
  });

  it('names the shapes a note describes after the note, a taken name after the resource of its uses, and a generic field name always', () => {
    // Prepare
    const note = 'Read-only, set by the server: ignored on create.';
    const readOnly = () => ({ description: note, $ref: '#/components/schemas/Id' });
    const values = (list: string[]) => ({ type: 'string', enum: list });
    const formPhase = () => values(['draft', 'active', 'archived', 'deleted']);
    const hookPhase = () => values(['enabled', 'disabled', 'paused', 'retired']);
    const method = () => values(['card', 'manual', 'bank_transfer', 'voucher']);
    const document: Json = {
      paths: {},
      components: {
        schemas: {
          CreateForm: { type: 'object', properties: { id: readOnly(), phase: formPhase(), ownerId: readOnly() } },
          Form: { type: 'object', properties: { phase: formPhase(), previousPhase: formPhase() } },
          CreateWebhook: { type: 'object', properties: { phase: hookPhase(), id: readOnly() } },
          Webhook: { type: 'object', properties: { phase: hookPhase(), previousPhase: hookPhase() } },
          CreatePayment: { type: 'object', properties: { method: method() } },
          PaymentOutput: { type: 'object', properties: { method: method(), refundMethod: method() } },
          Id: { type: 'string', pattern: '^[a-f0-9]{24}$' },
        },
      },
    };

    // Act
    shareRepeatedSchemas(document, { [note]: 'ReadOnly' });

    // Assess
    const schemas = (document.components as { schemas: Json }).schemas;
    expect(schemas.ReadOnlyId).toEqual(readOnly());
    // The first shape shared takes `Phase`; the other is named after the resource its uses belong to.
    expect([schemas.Phase, schemas.FormPhase ?? schemas.WebhookPhase]).toEqual(expect.arrayContaining([formPhase(), hookPhase()]));
    expect(Object.keys(schemas).filter((name) => name.endsWith('Phase')).sort()).toEqual(schemas.FormPhase ? ['FormPhase', 'Phase'] : ['Phase', 'WebhookPhase']);
    // `method` alone says nothing: the payment's, even where no other shape wants the name.
    expect(schemas.PaymentMethod).toEqual(method());
    expect(schemas.Method).toBeUndefined();
  });
});

describe('shortenPlainUnions', () => {
  it('writes a nullable plain type as a type list and a union of literals as an enum, and leaves references and mixed unions alone', () => {
    // Prepare
    const schema: Json = {
      type: 'object',
      properties: {
        note: { description: 'Free text.', anyOf: [{ type: 'string', maxLength: 200 }, { type: 'null' }] },
        currency: { anyOf: [{ type: 'null' }, { type: 'string', enum: ['USD', 'CAD'] }] },
        size: { anyOf: [{ type: 'number', const: 8 }, { type: 'number', const: 9 }] },
        when: { anyOf: [{ $ref: '#/components/schemas/DateTime' }, { type: 'null' }] },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    };
    const document: Json = { paths: {}, components: { schemas: { Thing: schema } } };

    // Act
    shortenPlainUnions(document);

    // Assess
    expect(schema.properties).toEqual({
      note: { description: 'Free text.', type: ['string', 'null'], maxLength: 200 },
      currency: { type: ['string', 'null'], enum: ['USD', 'CAD', null] },
      size: { type: 'number', enum: [8, 9] },
      when: { anyOf: [{ $ref: '#/components/schemas/DateTime' }, { type: 'null' }] },
      either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    });
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

describe('dropPatternsOnNumbers', () => {
  it('drops a pattern on an integer or a number, where it has no effect, and keeps it on strings', () => {
    // Prepare
    const parameters = [
      { name: 'pageSize', schema: { type: 'integer', pattern: '^-?\\d+$', minimum: 1, maximum: 250 } },
      { name: 'ratio', schema: { type: 'number', pattern: '^\\d+(\\.\\d+)?$' } },
      { name: 'code', schema: { type: 'string', pattern: '^[A-Z]+$' } },
    ];

    // Act
    dropPatternsOnNumbers({ paths: { '/a': { get: { parameters } } } });

    // Assess
    expect(parameters.map((parameter) => parameter.schema)).toEqual([
      { type: 'integer', minimum: 1, maximum: 250 },
      { type: 'number' },
      { type: 'string', pattern: '^[A-Z]+$' },
    ]);
  });
});

describe('titleTypedBranches', () => {
  it('titles each branch of a union told apart by its type, on the component it refers to or inline, and no other union', () => {
    // Prepare
    const typed = (type: string) => ({ type: 'object', properties: { type: { type: 'string', const: type } }, required: ['type'] });
    const schemas: Record<string, Json> = {
      YesNoElement: typed('Yes/No'),
      Element: { oneOf: [{ $ref: '#/components/schemas/YesNoElement' }, typed('Text')] },
      Amount: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
    };

    // Act
    titleTypedBranches({ paths: {}, components: { schemas } });

    // Assess
    expect(schemas.YesNoElement?.title).toBe('Yes/No');
    expect((schemas.Element?.oneOf as Json[])[1]?.title).toBe('Text');
    expect(JSON.stringify(schemas.Amount)).not.toContain('title');
  });
});
