import { TABLE_KEYS } from '../db/table-design.js';
import type { ImageContentType } from './image-format.js';

export const IMAGE_ENTITIES = { image: 'ImageAsset', newestFirst: 'ImageAssetByCreated' } as const;

/**
 * Key builders for image assets.
 * - Main item: `WS#<ws>#IMAGES` / `<id>`: GetItem by id.
 * - Listing copy: `WS#<ws>#IMAGES#BY_CREATED` / `<createdAt ms, 15 digits>#<id>`: ids order by
 *   second only (random within a second), so "most recently registered first" needs the
 *   millisecond timestamp in the key. The copy carries the whole (small) record, so a page is one Query.
 */
export const imageKeys = {
  collection: (workspaceId: string) => `WS#${workspaceId}#IMAGES`,
  image: (workspaceId: string, imageId: string) => ({
    [TABLE_KEYS.partitionKey]: imageKeys.collection(workspaceId),
    [TABLE_KEYS.sortKey]: imageId,
  }),
  byCreatedCollection: (workspaceId: string) => `WS#${workspaceId}#IMAGES#BY_CREATED`,
  byCreated: (workspaceId: string, record: Pick<ImageRecord, 'id' | 'createdAt'>) => ({
    [TABLE_KEYS.partitionKey]: imageKeys.byCreatedCollection(workspaceId),
    [TABLE_KEYS.sortKey]: `${String(record.createdAt).padStart(15, '0')}#${record.id}`,
  }),
};

/** What is stored: the public `url` is derived from `blobKey` when read (it depends on the deployment). */
export interface ImageRecord {
  id: string;
  hostId: string;
  blobKey: string;
  width: number;
  height: number;
  contentType: ImageContentType;
  sizeBytes: number;
  filename: string;
  purpose: 'content';
  createdAt: number;
  lastPublishedAt: number | null;
}

export function toImageItem(workspaceId: string, record: ImageRecord): Record<string, unknown> {
  return { ...imageKeys.image(workspaceId, record.id), [TABLE_KEYS.entityType]: IMAGE_ENTITIES.image, ...record };
}

export function toImageListingItem(workspaceId: string, record: ImageRecord): Record<string, unknown> {
  return { ...imageKeys.byCreated(workspaceId, record), [TABLE_KEYS.entityType]: IMAGE_ENTITIES.newestFirst, ...record };
}

export function fromImageItem(item: Record<string, unknown>): ImageRecord {
  return {
    id: item.id as string,
    hostId: item.hostId as string,
    blobKey: item.blobKey as string,
    width: item.width as number,
    height: item.height as number,
    contentType: item.contentType as ImageContentType,
    sizeBytes: item.sizeBytes as number,
    filename: item.filename as string,
    purpose: 'content',
    createdAt: item.createdAt as number,
    lastPublishedAt: (item.lastPublishedAt as number | null | undefined) ?? null,
  };
}
