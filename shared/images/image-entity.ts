import { TABLE_KEYS } from '../db/table-design.js';
import type { ImageContentType } from './image-format.js';

export const IMAGE_ENTITY = 'ImageAsset';

/**
 * Key builders for image assets. One collection per workspace: `WS#<workspaceId>#IMAGES` with the
 * time-ordered id as sort key, so a descending Query lists newest first.
 */
export const imageKeys = {
  collection: (workspaceId: string) => `WS#${workspaceId}#IMAGES`,
  image: (workspaceId: string, imageId: string) => ({
    [TABLE_KEYS.partitionKey]: imageKeys.collection(workspaceId),
    [TABLE_KEYS.sortKey]: imageId,
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
  return { ...imageKeys.image(workspaceId, record.id), [TABLE_KEYS.entityType]: IMAGE_ENTITY, ...record };
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
