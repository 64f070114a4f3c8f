import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPENAPI_DOCUMENT_FILE } from '../../shared/openapi/served-document.js';

/**
 * Where the built OpenAPI document is: OPENAPI_DOCUMENT_PATH when set (the local server and tests
 * write it at start, `bin/local/openapi-document.ts`), else next to the bundle (the CDK bundling
 * writes it there).
 */
export function openApiDocumentPath(): string {
  return process.env.OPENAPI_DOCUMENT_PATH || join(dirname(fileURLToPath(import.meta.url)), OPENAPI_DOCUMENT_FILE);
}

/** The built document, read once per cold start. */
export function loadBuiltOpenApiDocument(): object {
  return JSON.parse(readFileSync(openApiDocumentPath(), 'utf8')) as object;
}
