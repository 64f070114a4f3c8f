import { HttpResult, implement } from '../../shared/http/operation.js';
import { docsRoutes } from '../../shared/http/routes/docs.js';
import { documentServer } from '../../shared/openapi/served-document.js';
import { loadBuiltOpenApiDocument } from './openapi-file.js';

/** `If-None-Match` names the tag (or `*`), weak or strong: RFC 9110 compares weakly for GET. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

const serializedOpenApiDocumentFor = documentServer(loadBuiltOpenApiDocument);

/**
 * The document built at bundling time, serialised once per process and base URL; `no-cache` lets clients keep it and
 * revalidate with its ETag, answered with an empty 304 while the document is unchanged.
 */
export const getOpenApiDocument = implement(docsRoutes.openApi, async ({ baseUrl, headers }) => {
  const { body, etag } = serializedOpenApiDocumentFor(baseUrl);
  const cacheHeaders = { ETag: etag, 'Cache-Control': 'no-cache' };
  if (matches(headers['if-none-match'], etag)) return new HttpResult(304, undefined, cacheHeaders);
  return new HttpResult(200, body, { 'Content-Type': 'application/json; charset=utf-8', ...cacheHeaders });
});
