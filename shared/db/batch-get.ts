import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { pause } from './retry.js';

type Item = Record<string, unknown>;

/** BatchGetItem accepts at most 100 keys per call. */
const BATCH_GET_LIMIT = 100;
const MAX_ATTEMPTS = 8;

/**
 * Reads the items of many keys of the main table: one BatchGetItem per 100 keys, retrying
 * UnprocessedKeys with exponential backoff. Absent items are simply missing from the result, whose
 * order is unspecified. Callers dedupe keys first (DynamoDB rejects duplicates in one call).
 * `attributes` projects the items to those attributes (cheaper to transfer; capacity is the same).
 */
export async function batchGetItems(keys: readonly Item[], options: { attributes?: readonly string[] } = {}): Promise<Item[]> {
  // Attribute names go through placeholders: several (`name`, `type`, `status`) are reserved words.
  const projection = options.attributes
    ? {
      ProjectionExpression: options.attributes.map((_name, index) => `#a${index}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(options.attributes.map((name, index) => [`#a${index}`, name])),
    }
    : {};
  const items: Item[] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) {
    let pending: Item[] = keys.slice(start, start + BATCH_GET_LIMIT);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= MAX_ATTEMPTS) throw new Error('BatchGetItem left keys unprocessed after retries.');
      if (attempt > 0) await pause(2 ** attempt * 10);
      const { Responses, UnprocessedKeys } = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ...projection } } }));
      items.push(...(Responses?.[tableName()] ?? []));
      pending = (UnprocessedKeys?.[tableName()]?.Keys ?? []) as Item[];
    }
  }
  return items;
}
