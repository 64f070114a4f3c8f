import { beforeAll, describe, expect, it } from 'vitest';
import { ensureLocalOpenApiDocument } from '../../../bin/local/openapi-document.js';
import { handler } from '../../../functions/docs/handler.js';
import { openApiDocument } from '../../../shared/openapi/document.js';
import { docsRoutes } from '../../../shared/http/routes/docs.js';
import { apiEvent, context } from '../support/events.js';
import { documentedResponse } from '../../support/documented-schema.js';

function getDocument(headers: Record<string, string> = {}) {
  return handler(apiEvent({ route: docsRoutes.openApi, path: '/openapi.json', headers }), context());
}

beforeAll(async () => {
  await ensureLocalOpenApiDocument();
});

describe('GET /openapi.json', () => {
  it('serves the built document (the route table\'s), with the base URL the client called as its server', async () => {
    // Act
    const response = await getDocument();
    // Assess
    expect(JSON.parse(response.body)).toEqual({ ...openApiDocument(), servers: [{ url: 'http://127.0.0.1:3000' }] });
  });

  it('sends the same serialised document with a strong ETag on every request', async () => {
    // Act
    const first = await getDocument();
    const second = await getDocument();
    // Assess
    expect(first.statusCode).toBe(200);
    expect(first.headers?.ETag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(second.headers?.ETag).toBe(first.headers?.ETag);
    expect(second.body).toBe(first.body);
    expect(JSON.parse(first.body).servers).toEqual([{ url: 'http://127.0.0.1:3000' }]);
    expect(first.headers?.['Cache-Control']).toBe('no-cache');
  });

  it.each([['the ETag', (etag: string) => etag], ['a weak form of it in a list', (etag: string) => `"other", W/${etag}`], ['*', () => '*']])(
    'answers If-None-Match with %s with an empty 304 carrying the ETag',
    async (_label, ifNoneMatch) => {
      // Prepare
      const { headers } = await getDocument();
      const etag = headers?.ETag as string;
      // Act
      const response = await getDocument({ 'if-none-match': ifNoneMatch(etag) });
      // Assess
      expect(response.statusCode).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers?.ETag).toBe(etag);
      expect(documentedResponse(openApiDocument() as unknown as Record<string, unknown>, '/openapi.json', 'GET', 304)).toEqual({ description: expect.any(String) });
    },
  );

  it('sends the document again when If-None-Match names another version', async () => {
    const response = await getDocument({ 'if-none-match': '"stale"' });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).openapi).toBe('3.1.0');
  });

  it('keeps one document per base URL the API was called through', async () => {
    const response = await getDocument({ host: 'api.example.com' });
    expect(JSON.parse(response.body).servers[0].url).toContain('api.example.com');
  });
});
