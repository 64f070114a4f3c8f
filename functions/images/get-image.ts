import { blobUrls } from '../../shared/blob-store/index.js';
import { implement } from '../../shared/http/operation.js';
import { imagesRoutes } from '../../shared/http/routes/images.js';
import { getImageOrThrow, toImageAsset } from '../../shared/images/images-service.js';

export const getImageOperation = implement(imagesRoutes.getImage, async ({ workspaceId, params, baseUrl }) => {
  const record = await getImageOrThrow(workspaceId, params.id);
  return { data: toImageAsset(record, blobUrls(), baseUrl) };
});
