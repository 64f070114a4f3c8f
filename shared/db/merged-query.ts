import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.js';
import { decodeCursor, encodeCursor, type CursorScope } from './cursor.js';
import { compareSortKeys, queryInput, type Page, type PageRequest, type PartitionQuery } from './query.js';
import { sortValueOf } from './table-design.js';

type Item = Record<string, unknown>;

/** Items asked of one Query call at most; a deeper page simply takes more calls. */
const MAX_QUERY_LIMIT = 1_000;

/** The first `wanted` items of a partition query, in key order (several calls when the page is deep). */
async function firstItems(query: PartitionQuery, wanted: number): Promise<Item[]> {
  const input = queryInput(query);
  const collected: Item[] = [];
  let exclusiveStartKey: Item | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await db.send(new QueryCommand({
      ...input, ExclusiveStartKey: exclusiveStartKey, Limit: Math.min(wanted - collected.length, MAX_QUERY_LIMIT),
    }));
    collected.push(...Items);
    exclusiveStartKey = LastEvaluatedKey;
  } while (exclusiveStartKey && collected.length < wanted);
  return collected;
}

/**
 * One page of the union of several whole partitions (of the table or of one index) whose items share
 * one sort-key format, in one order: e.g. the events with `status=draft` read from their
 * `draft#public` and `draft#private` partitions. Each partition is read in key order and the streams
 * are merged as DynamoDB orders keys (UTF-8 bytes); sort keys must be unique across the partitions.
 * - With a cursor: one Query per partition from the cursor's sort-key value (a `gt`/`lt` range, so the
 *   position needs no item of that partition), `limit + 1` items each at most, whatever the depth.
 * - With a page number: `(page + 1) * limit + 1` items per partition at most.
 * Page numbers and cursors visit the same items in the same order.
 */
export async function queryMergedPage(queries: readonly PartitionQuery[], request: PageRequest, scope: CursorScope): Promise<Page<Item>> {
  const [first] = queries;
  if (!first) return { items: [], hasMore: false, nextCursor: null };
  const ascending = first.ascending ?? true;
  const index = first.index;
  const fromCursor = request.cursor !== undefined;
  const position = fromCursor ? decodeCursor(scope, request.cursor as string, 1)[0] as string : undefined;
  const skip = fromCursor ? 0 : request.page * request.limit;
  const wanted = skip + request.limit + 1;
  const streams = await Promise.all(queries.map((query) => firstItems(
    position === undefined ? query : { ...query, range: ascending ? { gt: position } : { lt: position } },
    wanted,
  )));
  const merged = streams.flat().sort((a, b) => {
    const order = compareSortKeys(String(sortValueOf(a, index)), String(sortValueOf(b, index)));
    return ascending ? order : -order;
  });
  const items = merged.slice(skip, skip + request.limit);
  const hasMore = merged.length > skip + request.limit;
  const last = items.at(-1);
  return { items, hasMore, nextCursor: hasMore && last ? encodeCursor(scope, [String(sortValueOf(last, index))]) : null };
}
