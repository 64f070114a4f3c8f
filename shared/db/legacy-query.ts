import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.js';

/*
 * TEMPORARY: the pre-toolkit query helpers, kept only while repositories move to `query.ts`
 * (PartitionQuery, cursors). Delete this file when nothing imports it.
 */

type Item = Record<string, unknown>;

/** Items asked of one Query call at most; a deeper page simply takes more calls. */
const MAX_QUERY_LIMIT = 1_000;

/**
 * One page of a Query in key order, for `page`/`limit` pagination: reads at most
 * `(page + 1) * limit + 1` matching items (following LastEvaluatedKey), so the cost of a page is
 * proportional to its depth, never to the size of the collection. The extra item tells `hasMore`.
 */
export async function legacyQueryPage(input: QueryCommandInput, page: number, limit: number): Promise<{ items: Item[]; hasMore: boolean }> {
  const wanted = (page + 1) * limit + 1;
  const collected: Item[] = [];
  let exclusiveStartKey = input.ExclusiveStartKey;
  do {
    const remaining = wanted - collected.length;
    const { Items = [], LastEvaluatedKey } = await db.send(new QueryCommand({
      ...input,
      ExclusiveStartKey: exclusiveStartKey,
      // Without a filter every item read is a match, so read exactly what is still needed. DynamoDB
      // refuses a Limit beyond a 32-bit integer (a 503 for `page=9007199254740991`), so cap each call.
      Limit: Math.min(input.FilterExpression ? Math.max(remaining, 25) : remaining, MAX_QUERY_LIMIT),
    }));
    collected.push(...Items);
    exclusiveStartKey = LastEvaluatedKey;
  } while (exclusiveStartKey && collected.length < wanted);
  const start = page * limit;
  return { items: collected.slice(start, start + limit), hasMore: collected.length > start + limit };
}

/** Every item of a Query (all pages). For bounded collections only, e.g. one workspace's checkouts. */
export async function legacyQueryAll(input: QueryCommandInput): Promise<Item[]> {
  const items: Item[] = [];
  let exclusiveStartKey = input.ExclusiveStartKey;
  do {
    const { Items = [], LastEvaluatedKey } = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: exclusiveStartKey }));
    items.push(...Items);
    exclusiveStartKey = LastEvaluatedKey;
  } while (exclusiveStartKey);
  return items;
}


/** TEMPORARY: the generic list response without cursors, for lists not yet on `queryPage`. */
export function legacyListResult<T>(data: T[], page: number, limit: number, hasMore: boolean) {
  return { data, page, limit, total: data.length, hasMore };
}
