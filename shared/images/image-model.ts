import { createHash } from 'node:crypto';
import * as z from 'zod';
import { entityAttribute, itemKey, type ItemKey } from '../db/table-design.js';
import { idSchema } from '../model/primitives.js';
import { extensionOf, type ImageContentType } from './image-format.js';
import { MAX_IMAGE_DIMENSION } from './image-header.js';
import { lazy } from '../model/lazy-schema.js';

/**
 * The image-asset model: the schema of the returned asset, the stored record, the keys of every image
 * item and the item <-> record mappers. Routes build their schemas from these; nothing here knows HTTP.
 */

export const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const satisfies readonly ImageContentType[];

export const imageAssetSchema = lazy(() => z
  .object({
    id: idSchema,
    hostId: z.string().meta({ description: 'Owning host (the workspace id of the API key).' }),
    url: z.string().meta({ description: 'Public download URL of the stored bytes.' }),
    width: z.number().int().positive().max(MAX_IMAGE_DIMENSION).meta({ description: `Pixels, read from the image header; at most ${MAX_IMAGE_DIMENSION}.` }),
    height: z.number().int().positive().max(MAX_IMAGE_DIMENSION).meta({ description: `Pixels, read from the image header; at most ${MAX_IMAGE_DIMENSION}.` }),
    contentType: z.enum(IMAGE_CONTENT_TYPES),
    sizeBytes: z.number().int().min(0),
    filename: z.string().meta({ description: 'Original file name, as given in `?filename=`.' }),
    purpose: z.enum(['content']).meta({ description: 'Hint for which UI surfaces the image; always `content` for now.' }),
    createdAt: z.number().int().meta({ description: 'Epoch milliseconds.' }),
    lastPublishedAt: z.number().int().nullable().meta({ description: 'Epoch milliseconds of the last publication to external consumers; null if never.' }),
  })
  .meta({ id: 'ImageAsset', description: 'A registered image. All fields are always present.' }));

export type ImageAsset = z.infer<typeof imageAssetSchema>;

/** What is stored: the public `url` is derived from `blobKey` when read (it depends on the deployment). */
export type ImageRecord = Omit<ImageAsset, 'url'> & { blobKey: string };

/**
 * Where an image's bytes live in the public blob store: `images/<tenant>/<id>.<ext>`. The object's URL
 * reaches public forms, partner sites and widgets, which never see a workspace id (API.md), so the
 * tenant folder is a digest of the workspace id, not the id: one folder per workspace all the same.
 */
export function imageBlobKey(workspaceId: string, imageId: string, contentType: ImageContentType): string {
  const tenant = createHash('sha256').update(`boxoffice-image-folder:${workspaceId}`).digest('hex').slice(0, 32);
  return `images/${tenant}/${imageId}.${extensionOf(contentType)}`;
}

export const IMAGE_ENTITIES = { image: 'ImageAsset', newestFirst: 'ImageAssetByCreated' } as const;

/**
 * Key builders, the only place image keys are spelled.
 * - Main item: `WS#<ws>#IMAGES` / `<id>`: GetItem by id, BatchGet for event images.
 * - Listing copy: `WS#<ws>#IMAGES#BY_CREATED` / `<createdAt ms, 15 digits>#<id>`: ids order by
 *   second only (random within a second), so "most recently registered first" needs the
 *   millisecond timestamp in the key. The copy carries the whole (small) record, so a page is one Query.
 */
export const imageKeys = {
  partition: (workspaceId: string) => `WS#${workspaceId}#IMAGES`,
  image: (workspaceId: string, imageId: string): ItemKey => itemKey(imageKeys.partition(workspaceId), imageId),
  byCreatedPartition: (workspaceId: string) => `WS#${workspaceId}#IMAGES#BY_CREATED`,
  byCreated: (workspaceId: string, record: Pick<ImageRecord, 'id' | 'createdAt'>): ItemKey =>
    itemKey(imageKeys.byCreatedPartition(workspaceId), `${String(record.createdAt).padStart(15, '0')}#${record.id}`),
};

export function toImageItem(workspaceId: string, record: ImageRecord): Record<string, unknown> {
  return { ...imageKeys.image(workspaceId, record.id), ...entityAttribute(IMAGE_ENTITIES.image), ...record };
}

export function toImageListingItem(workspaceId: string, record: ImageRecord): Record<string, unknown> {
  return { ...imageKeys.byCreated(workspaceId, record), ...entityAttribute(IMAGE_ENTITIES.newestFirst), ...record };
}

/** A stored main item or listing copy, as the record (fields in the spec's order, nothing else). */
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
