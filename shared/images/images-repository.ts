import { batchGetItems } from '../db/batch-get.js';
import { getItem } from '../db/conditional.js';
import { queryPage, type Page, type PageRequest } from '../db/query.js';
import { keyIdentity, keyOfItem, notExists } from '../db/table-design.js';
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

/** A workspace's image, named by both ids. */
export interface WorkspaceImageId {
  workspaceId: string;
  imageId: string;
}

/** The map key of an image of one workspace in `getImagesOfWorkspaces`. */
export const workspaceImageKey = ({ workspaceId, imageId }: WorkspaceImageId): string => `${workspaceId}/${imageId}`;

/**
 * Images of several workspaces, each id read under its own workspace's partition (so an id of another
 * workspace is simply absent), one BatchGet per 100 distinct keys; keyed by `workspaceImageKey`.
 */
export async function getImagesOfWorkspaces(ids: readonly WorkspaceImageId[]): Promise<Map<string, ImageRecord>> {
  const wanted = new Map(ids.map((id) => {
    const key = imageKeys.image(id.workspaceId, id.imageId);
    return [keyIdentity(key), { key, name: workspaceImageKey(id) }];
  }));
  const items = await batchGetItems([...wanted.values()].map(({ key }) => key));
  return new Map(items.flatMap((item) => {
    const name = wanted.get(keyIdentity(keyOfItem(item)))?.name;
    return name ? [[name, fromImageItem(item)] as const] : [];
  }));
}
