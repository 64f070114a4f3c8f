import { uploadStore } from '../../shared/blob-store/uploads.js';
import { implement } from '../../shared/http/operation.js';
import { imagesRoutes } from '../../shared/http/routes/images.js';
import { createImageUpload } from '../../shared/images/image-uploads-service.js';

export const createImageUploadOperation = implement(imagesRoutes.createImageUpload, async ({ workspaceId, body, baseUrl }) => {
  const { record, upload } = await createImageUpload(workspaceId, body, uploadStore(), baseUrl);
  return {
    data: {
      id: record.id,
      status: record.status,
      filename: record.filename,
      contentType: record.contentType,
      sizeBytes: record.sizeBytes,
      upload: { method: upload.method, url: upload.url, headers: upload.headers },
      expiresAt: upload.expiresAt.toISOString(),
      imageId: record.imageId,
      createdAt: new Date(record.createdAt).toISOString(),
    },
  };
});
