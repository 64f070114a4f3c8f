import * as z from 'zod';
import { defineRoute } from '../route.js';

/** The few swagger-ui-dist files the docs page needs; anything else under `/docs/` is a 404. */
export const DOCS_ASSETS = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
} as const;

export type DocsAsset = keyof typeof DOCS_ASSETS;

const assetNames = Object.keys(DOCS_ASSETS) as [DocsAsset, ...DocsAsset[]];

export const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string().meta({ description: 'OpenAPI version of the document: `3.1.0`.' }),
    info: z.looseObject({ title: z.string(), version: z.string().meta({ description: 'Interface version (API_VERSION).' }) }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'OpenApiDocument', description: 'This document.' });

export const docsRoutes = {
  openApi: defineRoute({
    group: 'docs',
    operation: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    auth: 'public',
    tags: ['Docs'],
    summary: 'OpenAPI 3.1 document',
    description: 'No key needed. Generated from the same zod schemas that validate requests, so it cannot drift from the implementation. `servers` is the URL the document was fetched from. Sent with `Access-Control-Allow-Origin: *` so that tools on other origins can load it.',
    success: { status: 200, description: 'The OpenAPI 3.1 document.', schema: openApiDocumentSchema },
    cors: true,
  }),
  docsPage: defineRoute({
    group: 'docs',
    operation: 'getDocsPage',
    method: 'GET',
    path: '/docs',
    auth: 'public',
    tags: ['Docs'],
    summary: 'Interactive API documentation',
    description: 'No key needed. A Swagger UI page served by the API itself (no CDN) that renders `GET /openapi.json`. Use "Authorize" with your API key to try `/v1` operations.',
    success: { status: 200, description: 'HTML page.', contentType: 'text/html; charset=utf-8' },
  }),
  docsAsset: defineRoute({
    group: 'docs',
    operation: 'getDocsAsset',
    method: 'GET',
    path: '/docs/{asset}',
    auth: 'public',
    tags: ['Docs'],
    summary: 'Static file of the documentation page',
    description: `Script and stylesheet of the documentation page (${assetNames.map((name) => `\`${name}\``).join(', ')}); any other name is a 404. Cacheable for a day.`,
    params: z.object({ asset: z.enum(assetNames) }),
    success: { status: 200, description: 'The file, with its own content type.', contentType: 'text/javascript' },
  }),
};
