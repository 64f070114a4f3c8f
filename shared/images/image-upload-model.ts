import { entityAttribute, itemKey, ttlAttribute, type ItemKey } from '../db/table-design.js';
import type { ImageContentType } from './image-format.js';

export const IMAGE_UPLOAD_ENTITY = 'ImageUpload';

/** Kept this long after its URL expired, then DynamoDB's TTL deletes it. */
const RETENTION_AFTER_EXPIRY_SECONDS = 24 * 60 * 60;

/** `WS#<ws>#IMAGEUPLOADS` / `<uploadId>`: one GetItem by id under the workspace. */
export function imageUploadKey(workspaceId: string, uploadId: string): ItemKey {
  return itemKey(`WS#${workspaceId}#IMAGEUPLOADS`, uploadId);
}

/** A two-step upload: what the client declared, where the bytes are staged, and what became of it. */
export interface ImageUploadRecord {
  id: string;
  filename: string;
  contentType: ImageContentType;
  sizeBytes: number;
  /** Key in the upload store (never shown to clients). */
  stagingKey: string;
  status: 'pending' | 'completed';
  imageId: string | null;
  /** Epoch milliseconds: the upload URL stops working. */
  expiresAt: number;
  createdAt: number;
}

export function toImageUploadItem(workspaceId: string, record: ImageUploadRecord): Record<string, unknown> {
  const { expiresAt, ...rest } = record;
  return {
    ...imageUploadKey(workspaceId, record.id),
    ...entityAttribute(IMAGE_UPLOAD_ENTITY),
    ...rest,
    // The table's TTL attribute is `expiresAt` in epoch seconds; the URL's expiry is kept beside it.
    uploadExpiresAt: expiresAt,
    ...ttlAttribute(Math.floor(expiresAt / 1000) + RETENTION_AFTER_EXPIRY_SECONDS),
  };
}

export function fromImageUploadItem(item: Record<string, unknown>): ImageUploadRecord {
  return {
    id: item.id as string,
    filename: item.filename as string,
    contentType: item.contentType as ImageContentType,
    sizeBytes: item.sizeBytes as number,
    stagingKey: item.stagingKey as string,
    status: item.status as ImageUploadRecord['status'],
    imageId: (item.imageId as string | null | undefined) ?? null,
    expiresAt: item.uploadExpiresAt as number,
    createdAt: item.createdAt as number,
  };
}
