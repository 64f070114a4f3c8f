import { createGroupHandler } from '../../shared/http/group-handler.js';
import { getDocsAsset } from './get-docs-asset.js';
import { getDocsPage } from './get-docs-page.js';
import { getOpenApiDocument } from './get-openapi-document.js';

export const operations = [getOpenApiDocument, getDocsPage, getDocsAsset];
export const handler = createGroupHandler('docs', operations);
