import { batchGetItems } from '../db/batch-get.js';
import { getItem } from '../db/conditional.js';
import { queryPage, type Page, type PageRequest } from '../db/query.js';
import { notExists } from '../db/table-design.js';
import { transaction } from '../db/transaction.js';
import { ConflictError } from '../errors.js';
import { fromImageItem, imageKeys, toImageItem, toImageListingItem, type ImageRecord } from './image-model.js';

const idTaken = () => new ConflictError('An image with this id already exists.');

/** Writes a new image record and its newest-first listing copy in ONE transaction; never overwrites. */
export async function putImage(workspaceId: string, record: ImageRecord): Promise<void> {
  await transaction()
    .put(toImageItem(workspaceId, record), { ...notExists(), onFailed: idTaken })
    .put(toImageListingItem(workspaceId, record), { ...notExists(), onFailed: idTaken })
    .commit();
}

/** One GetItem under the workspace's partition (eventually consistent): another workspace's id simply is not there. */
export async function getImage(workspaceId: string, imageId: string): Promise<ImageRecord | undefined> {
  const item = await getItem(imageKeys.image(workspaceId, imageId));
  return item ? fromImageItem(item) : undefined;
}

/**
 * Newest first: a descending Query on the workspace's listing copies. A cursor page is one Query of
 * `pageSize + 1` items whatever its depth; a page number reads `(page + 1) * pageSize + 1` (the
 * edge keeps that below 10,000 deep).
 */
export async function listImages(workspaceId: string, request: PageRequest): Promise<Page<ImageRecord>> {
  const page = await queryPage(
    { partition: imageKeys.byCreatedPartition(workspaceId), ascending: false },
    request,
    { owner: workspaceId, list: 'images' },
  );
  return { ...page, items: page.items.map(fromImageItem) };
}

/** Images of the workspace by id, one BatchGet per 100 ids; absent (or foreign) ids are missing from the map. */
export async function getImagesByIds(workspaceId: string, ids: readonly string[]): Promise<Map<string, ImageRecord>> {
  const items = await batchGetItems([...new Set(ids)].map((id) => imageKeys.image(workspaceId, id)));
  return new Map(items.map((item) => [item.id as string, fromImageItem(item)]));
}
