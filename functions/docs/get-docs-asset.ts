import { implement, HttpResult } from '../../shared/http/operation.js';
import { docsRoutes } from '../../shared/http/routes/docs.js';
import { loadDocsAsset } from './docs-assets.js';

const ONE_DAY_SECONDS = 86_400;

/**
 * Served as text, not base64: API Gateway only decodes base64 bodies when the request's Accept matches
 * a binary media type, and browsers ask for scripts with `*\/*`.
 */
export const getDocsAsset = implement(docsRoutes.docsAsset, async ({ params }) => {
  const asset = loadDocsAsset(params.asset);
  return new HttpResult(200, asset.text, { 'Content-Type': asset.contentType, 'Cache-Control': `public, max-age=${ONE_DAY_SECONDS}` });
});
