import { blobStore } from '../../shared/blob-store/index.js';
import { parseContentType } from '../../shared/http/media-type.js';
import { implement } from '../../shared/http/operation.js';
import { imagesRoutes } from '../../shared/http/routes/images.js';
import type { ImageContentType } from '../../shared/images/image-format.js';
import { registerImage, toImageAsset } from '../../shared/images/images-service.js';

export const registerImageOperation = implement(imagesRoutes.registerImage, async ({ workspaceId, rawBody, headers, query, baseUrl }) => {
  // The operation layer already refused any other content type with 415.
  const declaredType = parseContentType(headers['content-type']).type as ImageContentType;
  // `rawBody` is typed loosely by the shared input type; the operation layer always sets it for raw-body routes.
  const bytes: Buffer = rawBody ?? Buffer.alloc(0);
  const record = await registerImage(workspaceId, { bytes, declaredType, filename: query.filename }, blobStore());
  return { data: toImageAsset(record, blobStore(), baseUrl) };
});
