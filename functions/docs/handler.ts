import { createGroupHandler } from '../../shared/http/group-handler.js';
import { getDocsAsset } from './get-docs-asset.js';
import { getDocsPage } from './get-docs-page.js';
import { getOpenApiDocument } from './get-openapi-document.js';
import { getWidgetScript } from './get-widget-script.js';

export const operations = [getOpenApiDocument, getDocsPage, getDocsAsset, getWidgetScript];
export const handler = createGroupHandler('docs', operations);
