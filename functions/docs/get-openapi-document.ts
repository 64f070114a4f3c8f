import { implement } from '../../shared/http/operation.js';
import { docsRoutes } from '../../shared/http/routes/docs.js';
import { openApiDocumentFor } from '../../shared/openapi/document.js';

export const getOpenApiDocument = implement(docsRoutes.openApi, async ({ baseUrl }) => openApiDocumentFor(baseUrl));
