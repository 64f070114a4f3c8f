import * as z from 'zod';
import { defineRoute } from '../route.js';
import { lazy } from '../../model/lazy-schema.js';

/** The few swagger-ui-dist files the docs page needs; anything else under `/docs/` is a 404. */
export const DOCS_ASSETS = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
} as const;

export type DocsAsset = keyof typeof DOCS_ASSETS;

const assetNames = Object.keys(DOCS_ASSETS) as [DocsAsset, ...DocsAsset[]];

export const openApiDocumentSchema = lazy(() => z
  .looseObject({
    openapi: z.string().meta({ description: 'OpenAPI version of the document: `3.1.0`.' }),
    info: z.looseObject({ title: z.string(), version: z.string().meta({ description: 'Interface version (API_VERSION).' }) }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'OpenApiDocument', description: 'This document.' }));

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
    notModified: true,
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
    success: { status: 200, description: 'HTML page.', contentTypes: ['text/html; charset=utf-8'] },
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
    params: lazy(() => z.object({ asset: z.enum(assetNames) })),
    success: { status: 200, description: 'The file, with its own content type.', contentTypes: [...new Set(Object.values(DOCS_ASSETS))] as [string, ...string[]] },
  }),
};

/** Where the embeddable widgets' script is served; a breaking change gets `/widget/v2/` (API.md). */
export const WIDGET_SCRIPT_PATH = '/widget/v1/boxoffice.js';

export const widgetRoutes = {
  widgetScript: defineRoute({
    group: 'docs',
    operation: 'getWidgetScript',
    method: 'GET',
    path: WIDGET_SCRIPT_PATH,
    auth: 'public',
    cors: true,
    tags: ['Embeddables'],
    summary: 'Embeddable widgets script',
    description: [
      'No key. One script (at most 25 KiB gzip-compressed) that defines two custom elements with shadow DOM:',
      '`<boxoffice-events referral-code="CODE" limit="20" filter="upcoming" sort="start">` lists a partner\'s public events (GET /partner/events) with "Load more";',
      '`<boxoffice-form form-id="ID" attendees="1">` renders an active form (GET /forms/{formId}), applies its logic with the server\'s own evaluator, and posts to POST /forms/{formId}/responses,',
      'dispatching `boxoffice:submitted` (`detail: {id, contactId?}`). Both take `api-base` (default: the API the script came from) and are themed with `--boxoffice-*` CSS custom properties.',
      'Cacheable for an hour; the path is versioned (a breaking change gets `/widget/v2/`).',
    ].join(' '),
    success: { status: 200, description: 'The script.', contentTypes: ['text/javascript; charset=utf-8'] },
  }),
};
