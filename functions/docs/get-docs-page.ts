import { implement, HttpResult } from '../../shared/http/operation.js';
import { docsRoutes } from '../../shared/http/routes/docs.js';
import { DOCS_PAGE_HEADERS, renderDocsPage } from './docs-page.js';

export const getDocsPage = implement(docsRoutes.docsPage, async ({ baseUrl }) =>
  new HttpResult(200, renderDocsPage(baseUrl), { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=300', ...DOCS_PAGE_HEADERS }));
