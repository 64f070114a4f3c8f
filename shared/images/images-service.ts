import type { BlobStore, BlobUrls } from '../blob-store/blob-store.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { isId, newId } from '../ids.js';
import { isWebUrl } from '../model/primitives.js';
import { imageBlobKey, type ImageAsset, type ImageRecord } from './image-model.js';
import { inspectImage, type ImageContentType } from './image-format.js';
import * as repository from './images-repository.js';

export interface RegisterImageInput {
  bytes: Buffer;
  declaredType: ImageContentType;
  filename: string;
}

/** Turns a stored record into the API shape, resolving the blob key to its public URL. */
export function toImageAsset(record: ImageRecord, store: BlobUrls, requestBaseUrl: string): ImageAsset {
  return {
    id: record.id,
    hostId: record.hostId,
    url: store.publicUrl(record.blobKey, requestBaseUrl),
    width: record.width,
    height: record.height,
    contentType: record.contentType,
    sizeBytes: record.sizeBytes,
    filename: record.filename,
    purpose: record.purpose,
    createdAt: record.createdAt,
    lastPublishedAt: record.lastPublishedAt,
  };
}

/**
 * Registers an image: checks the bytes really are the declared PNG/JPEG, reads its dimensions, stores
 * the bytes, then writes the record. Bytes go first so that a listed image always downloads; a
 * failure between the two leaves only an unreferenced blob, never a record without bytes.
 */
export async function registerImage(workspaceId: string, input: RegisterImageInput, store: BlobStore, now = new Date()): Promise<ImageRecord> {
  const inspection = inspectImage(input.bytes, input.declaredType);
  if (!inspection.ok) throw new ValidationError(inspection.problems);
  const id = newId(now);
  const blobKey = imageBlobKey(workspaceId, id, inspection.facts.contentType);
  await store.put(blobKey, input.bytes, inspection.facts.contentType);
  const record: ImageRecord = {
    id,
    hostId: workspaceId,
    blobKey,
    width: inspection.facts.width,
    height: inspection.facts.height,
    contentType: inspection.facts.contentType,
    sizeBytes: input.bytes.length,
    filename: input.filename,
    purpose: 'content',
    createdAt: now.getTime(),
    lastPublishedAt: null,
  };
  await repository.putImage(workspaceId, record);
  return record;
}

export async function getImageOrThrow(workspaceId: string, imageId: string): Promise<ImageRecord> {
  const record = await repository.getImage(workspaceId, imageId);
  if (!record) throw new NotFoundError('Image');
  return record;
}

export const listImages = repository.listImages;

/** An image reference (an image asset id or a URL, as events store them) and the workspace whose event holds it. */
export interface WorkspaceImageReference {
  workspaceId: string;
  reference: string;
}

/**
 * Resolves image references of several workspaces at once: each asset id is looked up in ITS OWN
 * workspace only. The answer gives, for a reference, the asset's download URL when it is an asset id of
 * that workspace, `undefined` when it is an id that is no asset there (another workspace's, deleted,
 * never uploaded), the reference itself when it is an https:/http: URL, and `undefined` for anything
 * else (text stored before references were checked): what is answered can always be shown as an image.
 * One BatchGet per 100 distinct asset ids, and none when there is no asset id.
 */
export async function resolveWorkspaceImageReferences(
  references: readonly WorkspaceImageReference[],
  store: BlobUrls,
  requestBaseUrl: string,
): Promise<(reference: WorkspaceImageReference) => string | undefined> {
  const assetIds = references.filter(({ reference }) => isId(reference)).map(({ workspaceId, reference }) => ({ workspaceId, imageId: reference }));
  const assets = assetIds.length > 0 ? await repository.getImagesOfWorkspaces(assetIds) : new Map<string, ImageRecord>();
  return ({ workspaceId, reference }) => {
    if (!isId(reference)) return isWebUrl(reference) ? reference : undefined;
    const asset = assets.get(repository.workspaceImageKey({ workspaceId, imageId: reference }));
    return asset ? store.publicUrl(asset.blobKey, requestBaseUrl) : undefined;
  };
}

/**
 * Resolves image references of one workspace to download URLs: asset ids of the workspace become
 * their public URL, URLs stay; a reference that is neither has no entry. One BatchGet per 100 distinct asset ids.
 */
export async function resolveImageReferences(workspaceId: string, references: readonly string[], store: BlobUrls, requestBaseUrl: string): Promise<Map<string, string>> {
  const resolve = await resolveWorkspaceImageReferences(references.map((reference) => ({ workspaceId, reference })), store, requestBaseUrl);
  return new Map(references.flatMap((reference) => {
    const url = resolve({ workspaceId, reference });
    return url === undefined ? [] : [[reference, url] as const];
  }));
}
