import { blobStore } from '../../shared/blob-store/index.js';
import { uploadStore } from '../../shared/blob-store/uploads.js';
import { implement } from '../../shared/http/operation.js';
import { imagesRoutes } from '../../shared/http/routes/images.js';
import { completeImageUpload } from '../../shared/images/image-uploads-service.js';
import { toImageAsset } from '../../shared/images/images-service.js';

export const completeImageUploadOperation = implement(imagesRoutes.completeImageUpload, async ({ workspaceId, params, baseUrl }) => {
  const record = await completeImageUpload(workspaceId, params.uploadId, uploadStore());
  return { data: toImageAsset(record, blobStore(), baseUrl) };
});
