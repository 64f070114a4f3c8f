import type { PresignedUpload, UploadStore } from '../blob-store/upload-store.js';
import { InvalidStateError, NotFoundError, ValidationError } from '../errors.js';
import { newId } from '../ids.js';
import { imageBlobKey, type ImageRecord } from './image-model.js';
import { extensionOf, inspectImage, type ImageContentType } from './image-format.js';
import { UPLOAD_INSPECTION_PREFIX_BYTES, UPLOAD_URL_TTL_SECONDS } from './image-limits.js';
import type { ImageUploadRecord } from './image-upload-model.js';
import * as repository from './image-uploads-repository.js';

export interface NewImageUpload {
  filename: string;
  contentType: ImageContentType;
  sizeBytes: number;
}

/**
 * Step 1 of a large image upload: records what the client will send and answers a short-lived URL
 * that accepts exactly that (type and size are signed into it).
 */
export async function createImageUpload(workspaceId: string, input: NewImageUpload, store: UploadStore, requestBaseUrl: string, now = new Date()): Promise<{ record: ImageUploadRecord; upload: PresignedUpload }> {
  const id = newId(now);
  const stagingKey = `uploads/${workspaceId}/${id}.${extensionOf(input.contentType)}`;
  const upload = await store.presignPut(stagingKey, { contentType: input.contentType, sizeBytes: input.sizeBytes, expiresInSeconds: UPLOAD_URL_TTL_SECONDS }, requestBaseUrl, now);
  const record: ImageUploadRecord = {
    id, ...input, stagingKey, status: 'pending', imageId: null, expiresAt: upload.expiresAt.getTime(), createdAt: now.getTime(),
  };
  await repository.putImageUpload(workspaceId, record);
  return { record, upload };
}

/** Checks type and true dimensions from the first bytes, reading everything only when the header is further in. */
async function inspectStaged(store: UploadStore, record: ImageUploadRecord, sizeBytes: number) {
  const prefix = await store.readPrefix(record.stagingKey, UPLOAD_INSPECTION_PREFIX_BYTES);
  let inspection = inspectImage(prefix, record.contentType);
  if (!inspection.ok && sizeBytes > prefix.length) inspection = inspectImage(await store.read(record.stagingKey), record.contentType);
  if (!inspection.ok) throw new ValidationError(inspection.problems.map((problem) => ({ ...problem, path: 'upload' })));
  return inspection.facts;
}

/**
 * Step 2: the uploaded bytes become a normal image asset. They must be there, have the declared size,
 * really be the declared PNG/JPEG, and have readable dimensions; then they are copied to the public
 * store and the image is registered (with the upload marked completed) in one transaction.
 */
export async function completeImageUpload(workspaceId: string, uploadId: string, store: UploadStore, now = new Date()): Promise<ImageRecord> {
  const upload = await repository.getImageUpload(workspaceId, uploadId);
  if (!upload) throw new NotFoundError('Image upload');
  if (upload.status === 'completed') throw new InvalidStateError(`This upload is already registered as image ${upload.imageId}.`);
  const staged = await store.head(upload.stagingKey);
  if (!staged) {
    throw new InvalidStateError(now.getTime() > upload.expiresAt
      ? 'The upload URL expired before any bytes arrived. Start a new upload.'
      : 'No bytes have arrived yet: PUT the image to upload.url with upload.headers, then complete the upload.');
  }
  if (staged.sizeBytes !== upload.sizeBytes) {
    throw new ValidationError({ path: 'upload', message: `The uploaded object has ${staged.sizeBytes} bytes, not the declared ${upload.sizeBytes}.` });
  }
  const facts = await inspectStaged(store, upload, staged.sizeBytes);
  const id = newId(now);
  const blobKey = imageBlobKey(workspaceId, id, facts.contentType);
  // Bytes first, as for single-request images: a registered image always downloads.
  await store.promote(upload.stagingKey, blobKey, facts.contentType);
  const image: ImageRecord = {
    id, hostId: workspaceId, blobKey, width: facts.width, height: facts.height, contentType: facts.contentType,
    sizeBytes: staged.sizeBytes, filename: upload.filename, purpose: 'content', createdAt: now.getTime(), lastPublishedAt: null,
  };
  await repository.completeImageUpload(workspaceId, uploadId, image);
  // Only now: a failed registration can be retried with the staged bytes still there.
  await store.discard(upload.stagingKey).catch(() => undefined);
  return image;
}
