import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPENAPI_DOCUMENT_FILE } from '../../shared/openapi/served-document.js';

/**
 * Builds the OpenAPI document once per process into a temporary folder and points the docs function
 * at it (OPENAPI_DOCUMENT_PATH), as the CDK bundling writes it next to the deployed bundle: locally
 * the docs function serves a built document exactly as it does deployed.
 */
export async function ensureLocalOpenApiDocument(): Promise<void> {
  if (process.env.OPENAPI_DOCUMENT_PATH) return;
  const { writeOpenApiDocument } = await import('../../shared/openapi/document.js');
  const path = join(mkdtempSync(join(tmpdir(), 'boxoffice-openapi-')), OPENAPI_DOCUMENT_FILE);
  writeOpenApiDocument(path);
  process.env.OPENAPI_DOCUMENT_PATH = path;
}
