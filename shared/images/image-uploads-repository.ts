import { getItem, putItem } from '../db/conditional.js';
import { notExists } from '../db/table-design.js';
import { transaction } from '../db/transaction.js';
import { ConflictError, InvalidStateError } from '../errors.js';
import { toImageItem, toImageListingItem, type ImageRecord } from './image-model.js';
import { fromImageUploadItem, imageUploadKey, toImageUploadItem, type ImageUploadRecord } from './image-upload-model.js';

export async function putImageUpload(workspaceId: string, record: ImageUploadRecord): Promise<void> {
  await putItem(toImageUploadItem(workspaceId, record), { ...notExists(), onFailed: () => new ConflictError('An upload with this id already exists.') });
}

/** One GetItem under the workspace: another workspace's upload simply is not there. */
export async function getImageUpload(workspaceId: string, uploadId: string): Promise<ImageUploadRecord | undefined> {
  // Consistent: completing decides on the status read here.
  const item = await getItem(imageUploadKey(workspaceId, uploadId), { consistent: true });
  return item ? fromImageUploadItem(item) : undefined;
}

/**
 * Registers the uploaded image and marks the upload completed in ONE transaction, conditional on the
 * upload still being pending: two concurrent completions make one image, the other is refused.
 */
export async function completeImageUpload(workspaceId: string, uploadId: string, image: ImageRecord): Promise<void> {
  const imageExists = () => new ConflictError('An image with this id already exists.');
  await transaction()
    .put(toImageItem(workspaceId, image), { ...notExists(), onFailed: imageExists })
    .put(toImageListingItem(workspaceId, image), { ...notExists(), onFailed: imageExists })
    .update({
      key: imageUploadKey(workspaceId, uploadId),
      update: 'SET #status = :completed, #imageId = :imageId',
      names: { '#imageId': 'imageId' },
      values: { ':completed': 'completed', ':imageId': image.id },
      condition: {
        expression: '#status = :pending',
        names: { '#status': 'status' },
        values: { ':pending': 'pending' },
        onFailed: () => new InvalidStateError('This upload is already registered as an image.'),
        priority: -1,
      },
    })
    .commit();
}
