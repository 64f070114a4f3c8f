import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../shared/openapi/document.js';
import { conformanceViolations, documentedPath } from '../../support/documented-schema.js';

const document = openApiDocument() as unknown as Record<string, unknown>;
const json = 'application/json';
const formId = '6740f1a2c3d4e5f637386ae0';

describe('documentedPath', () => {
  it('finds the template of a concrete path, with or without a trailing slash or a query, literal segments first', () => {
    // Act
    const found = [`/v1/forms/${formId}`, `/v1/forms/${formId}/`, '/v1/forms?limit=2', '/v1/', '/nothing', '/v1/events/balance', `/v1/events/${formId}`].map((path) => documentedPath(document, path));

    // Assess
    expect(found).toEqual(['/v1/forms/{formId}', '/v1/forms/{formId}', '/v1/forms', '/v1', undefined, '/v1/events/balance', '/v1/events/{id}']);
  });
});

describe('conformanceViolations (the integration harness holds every answer to the document with it)', () => {
  const notFound = { error: { code: 'not_found', message: 'No form with this id.' } };

  it('accepts a documented status with a body that fits', () => {
    // Act
    const problems = conformanceViolations(document, 'GET', `/v1/forms/${formId}`, { status: 404, contentType: json, text: JSON.stringify(notFound), body: notFound });

    // Assess
    expect(problems).toEqual([]);
  });

  it('reports a status the operation does not document', () => {
    // Act
    const problems = conformanceViolations(document, 'GET', `/v1/forms/${formId}`, { status: 418, contentType: json, text: '{}', body: {} });

    // Assess
    expect(problems).toEqual(['GET /v1/forms/{formId}: 418 is not documented']);
  });

  it('reports an error code outside the response\'s enum and a field the schema does not have', () => {
    // Prepare
    const body = { error: { code: 'teapot', message: 'No.', hint: 'x' } };

    // Act
    const problems = conformanceViolations(document, 'GET', `/v1/forms/${formId}`, { status: 404, contentType: json, text: JSON.stringify(body), body });

    // Assess
    expect(problems.join('\n')).toContain('"teapot" is not one of');
    expect(problems.join('\n')).toContain('$.error.hint: not allowed');
  });

  it('reports a content type the response does not document, and a body where it documents none', () => {
    // Act
    const html = conformanceViolations(document, 'GET', `/v1/forms/${formId}`, { status: 404, contentType: 'text/html', text: '<p>no</p>', body: '<p>no</p>' });
    const deleted = conformanceViolations(document, 'DELETE', `/v1/checkouts/${formId}`, { status: 204, contentType: json, text: '{}', body: {} });

    // Assess
    expect(html).toEqual(['GET /v1/forms/{formId}: 404 documents application/json, got text/html']);
    expect(deleted).toEqual(['DELETE /v1/checkouts/{id}: 204 documents no body, got application/json']);
  });

  it('leaves to the conventions what the document describes there: unknown paths, other methods (405), transport refusals', () => {
    // Act
    const problems = [
      conformanceViolations(document, 'GET', '/nothing-here', { status: 404, contentType: json, text: '{}', body: {} }),
      conformanceViolations(document, 'PUT', '/v1/forms', { status: 405, contentType: json, text: '{}', body: {} }),
      conformanceViolations(document, 'GET', '/v1/forms', { status: 431, contentType: json, text: '{}', body: {} }),
    ];

    // Assess
    expect(problems).toEqual([[], [], []]);
  });
});
