import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { legacyQueryPage as queryPage } from '../db/legacy-query.js';
import { TABLE_KEYS } from '../db/table-design.js';
import { ConflictError } from '../errors.js';
import { fromImageItem, imageKeys, toImageItem, toImageListingItem, type ImageRecord } from './image-entity.js';

/** Writes a new image record and its newest-first listing copy in ONE transaction; never overwrites. */
export async function putImage(workspaceId: string, record: ImageRecord): Promise<void> {
  const notExists = { ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey } };
  try {
    await db.send(new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: toImageItem(workspaceId, record), ...notExists } },
        { Put: { TableName: tableName(), Item: toImageListingItem(workspaceId, record), ...notExists } },
      ],
    }));
  } catch (error) {
    if (error instanceof TransactionCanceledException && error.CancellationReasons?.some((reason) => reason.Code === 'ConditionalCheckFailed')) {
      throw new ConflictError('An image with this id already exists.');
    }
    throw error;
  }
}

/** One GetItem under the workspace's collection: another workspace's id simply is not there. */
export async function getImage(workspaceId: string, imageId: string): Promise<ImageRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: imageKeys.image(workspaceId, imageId) }));
  return Item ? fromImageItem(Item) : undefined;
}

/**
 * Newest first: a descending Query on the workspace's listing copies, reading at most
 * `(page + 1) * pageSize + 1` items.
 */
export async function listImages(workspaceId: string, page: number, pageSize: number): Promise<{ items: ImageRecord[]; hasMore: boolean }> {
  const { items, hasMore } = await queryPage({
    TableName: tableName(),
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
    ExpressionAttributeValues: { ':pk': imageKeys.byCreatedCollection(workspaceId) },
    ScanIndexForward: false,
  }, page, pageSize);
  return { items: items.map(fromImageItem), hasMore };
}

const BATCH_GET_MAX = 100;
const BATCH_GET_ATTEMPTS = 5;

/** Images of the workspace by id, one BatchGet per 100 ids; absent (or foreign) ids are missing from the map. */
export async function getImagesByIds(workspaceId: string, ids: readonly string[]): Promise<Map<string, ImageRecord>> {
  const found = new Map<string, ImageRecord>();
  const unique = [...new Set(ids)];
  for (let start = 0; start < unique.length; start += BATCH_GET_MAX) {
    let keys: Record<string, unknown>[] = unique.slice(start, start + BATCH_GET_MAX).map((id) => imageKeys.image(workspaceId, id));
    for (let attempt = 0; keys.length > 0; attempt += 1) {
      if (attempt >= BATCH_GET_ATTEMPTS) throw new Error('BatchGetItem left image keys unprocessed after retries.');
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 2 ** attempt * 10));
      const { Responses, UnprocessedKeys } = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys } } }));
      for (const item of Responses?.[tableName()] ?? []) {
        const record = fromImageItem(item);
        found.set(record.id, record);
      }
      keys = (UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
}
