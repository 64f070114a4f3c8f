import { blobUrls } from '../../shared/blob-store/index.js';
import { implement } from '../../shared/http/operation.js';
import { imagesRoutes } from '../../shared/http/routes/images.js';
import { listImages, toImageAsset } from '../../shared/images/images-service.js';

export const listImagesOperation = implement(imagesRoutes.listImages, async ({ workspaceId, query, baseUrl }) => {
  const { items, hasMore, nextCursor } = await listImages(workspaceId, { page: query.page ?? 0, limit: query.pageSize, cursor: query.cursor });
  return { hasMore, data: items.map((record) => toImageAsset(record, blobUrls(), baseUrl)), nextCursor };
});
