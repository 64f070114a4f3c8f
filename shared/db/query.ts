import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { InvalidCursorError, decodeCursor, encodeCursor, type CursorScope } from './cursor.js';
import { INDEXES, TABLE_KEYS, type IndexName } from './table-design.js';

type Item = Record<string, unknown>;

/** Items asked of one Query call at most; a deeper page simply takes more calls. */
const MAX_QUERY_LIMIT = 1_000;

/** A range on the sort key of the queried partition. At most one of these is set. */
export interface SortKeyRange {
  beginsWith?: string;
  between?: readonly [string, string];
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}

/**
 * One partition of the table or of an index, optionally narrowed to a sort-key range: the only
 * shape of read a list may make. Attribute names come from the table design.
 */
export interface PartitionQuery {
  index?: IndexName;
  partition: string;
  range?: SortKeyRange;
  /** Sort-key order; default ascending. */
  ascending?: boolean;
  /** Strong consistency: only for reads a write decision depends on (never on indexes). */
  consistent?: boolean;
}

/** The QueryCommand input of a partition query. */
export function queryInput(query: PartitionQuery): QueryCommandInput {
  const design = query.index ? INDEXES[query.index] : { partitionKey: TABLE_KEYS.partitionKey, sortKey: TABLE_KEYS.sortKey };
  const names: Record<string, string> = { '#pk': design.partitionKey };
  const values: Record<string, unknown> = { ':pk': query.partition };
  let condition = '#pk = :pk';
  const range = query.range;
  if (range) {
    names['#sk'] = design.sortKey;
    if (range.beginsWith !== undefined) {
      condition += ' AND begins_with(#sk, :prefix)';
      values[':prefix'] = range.beginsWith;
    } else if (range.between) {
      condition += ' AND #sk BETWEEN :lo AND :hi';
      values[':lo'] = range.between[0];
      values[':hi'] = range.between[1];
    } else {
      const [operator, value] = range.gt !== undefined ? ['>', range.gt]
        : range.gte !== undefined ? ['>=', range.gte]
          : range.lt !== undefined ? ['<', range.lt]
            : ['<=', range.lte];
      condition += ` AND #sk ${operator} :bound`;
      values[':bound'] = value;
    }
  }
  return {
    TableName: tableName(),
    ...(query.index ? { IndexName: INDEXES[query.index].indexName } : {}),
    KeyConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: query.ascending ?? true,
    ...(query.consistent ? { ConsistentRead: true } : {}),
  };
}

/** The attributes that make a position in the query's order, partition excluded (it is known). */
function positionAttributes(index: IndexName | undefined): string[] {
  return index
    ? [INDEXES[index].sortKey, TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]
    : [TABLE_KEYS.sortKey];
}

function startKey(query: PartitionQuery, position: readonly string[]): Item {
  const partitionAttribute = query.index ? INDEXES[query.index].partitionKey : TABLE_KEYS.partitionKey;
  const key: Item = { [partitionAttribute]: query.partition };
  positionAttributes(query.index).forEach((attribute, index) => {
    key[attribute] = position[index];
  });
  return key;
}

function positionOf(query: PartitionQuery, item: Item): string[] {
  return positionAttributes(query.index).map((attribute) => String(item[attribute]));
}

/** DynamoDB orders string keys by their UTF-8 bytes, not by JavaScript's UTF-16 code units. */
export function compareSortKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Where a cursor's sort-key value lies against the query's range, in the query's order. A range that
 * moves with time (`end > now`) can leave an old cursor behind its start, and DynamoDB refuses an
 * ExclusiveStartKey outside the key condition: such a cursor reads from the range's start (everything
 * before its position is out of range anyway), and one at or beyond the range's end reads nothing.
 */
function placeInRange(query: PartitionQuery, value: string): 'within' | 'before-the-start' | 'past-the-end' {
  const range = query.range;
  if (!range) return 'within';
  // Every item of a prefix range starts with the prefix, so a position that does not was never issued by
  // this list (DynamoDB would refuse it as an ExclusiveStartKey: a 500, not the caller's 400).
  if (range.beginsWith !== undefined) {
    if (!value.startsWith(range.beginsWith)) throw new InvalidCursorError();
    return 'within';
  }
  const lower = range.between?.[0] ?? range.gt ?? range.gte;
  const upper = range.between?.[1] ?? range.lt ?? range.lte;
  const belowLower = lower !== undefined && (range.gt !== undefined ? compareSortKeys(value, lower) <= 0 : compareSortKeys(value, lower) < 0);
  const atOrAboveUpper = upper !== undefined && compareSortKeys(value, upper) >= 0;
  const atOrBelowLower = lower !== undefined && compareSortKeys(value, lower) <= 0;
  const aboveUpper = upper !== undefined && (range.lt !== undefined ? compareSortKeys(value, upper) >= 0 : compareSortKeys(value, upper) > 0);
  if (query.ascending ?? true) return belowLower ? 'before-the-start' : atOrAboveUpper ? 'past-the-end' : 'within';
  return aboveUpper ? 'before-the-start' : atOrBelowLower ? 'past-the-end' : 'within';
}

/** A page request of a generic list: a page number, or a cursor from the previous page. */
export interface PageRequest {
  page: number;
  limit: number;
  cursor?: string | undefined;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** Cursor of the next page, `null` on the last one. */
  nextCursor: string | null;
}

/**
 * One page of a partition query, in key order.
 * - With a cursor: ONE Query from the cursor's position, `limit + 1` items (the extra one tells
 *   `hasMore`), whatever the depth.
 * - With a page number: reads `(page + 1) * limit + 1` items (the edge caps the depth at 10,000).
 * Either way the answer carries the cursor of the next page, which visits the same items in the same
 * order as the next page number would.
 */
export async function queryPage(query: PartitionQuery, request: PageRequest, scope: CursorScope): Promise<Page<Item>> {
  const arity = positionAttributes(query.index).length;
  const fromCursor = request.cursor !== undefined;
  const skip = fromCursor ? 0 : request.page * request.limit;
  const wanted = skip + request.limit + 1;
  const input = queryInput(query);
  const collected: Item[] = [];
  const position = fromCursor ? decodeCursor(scope, request.cursor as string, arity) : undefined;
  const placement = position ? placeInRange(query, position[0] as string) : 'within';
  if (placement === 'past-the-end') return { items: [], hasMore: false, nextCursor: null };
  let exclusiveStartKey: Item | undefined = position && placement === 'within' ? startKey(query, position) : undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await db.send(new QueryCommand({
      ...input,
      ExclusiveStartKey: exclusiveStartKey,
      Limit: Math.min(wanted - collected.length, MAX_QUERY_LIMIT),
    }));
    collected.push(...Items);
    exclusiveStartKey = LastEvaluatedKey;
  } while (exclusiveStartKey && collected.length < wanted);
  const items = collected.slice(skip, skip + request.limit);
  const hasMore = collected.length > skip + request.limit;
  const last = items.at(-1);
  return { items, hasMore, nextCursor: hasMore && last ? encodeCursor(scope, positionOf(query, last)) : null };
}

/** Every item of a partition query (all pages). Only for partitions bounded by design. */
export async function queryAll(query: PartitionQuery): Promise<Item[]> {
  const input = queryInput(query);
  const items: Item[] = [];
  let exclusiveStartKey: Item | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: exclusiveStartKey }));
    items.push(...Items);
    exclusiveStartKey = LastEvaluatedKey;
  } while (exclusiveStartKey);
  return items;
}

/** At most `limit` items of a partition query, in one call. */
export async function queryFirst(query: PartitionQuery, limit: number): Promise<Item[]> {
  const { Items = [] } = await db.send(new QueryCommand({ ...queryInput(query), Limit: limit }));
  return Items;
}

/** Generic list response (spec "Generic list pagination convention"); `total` counts this page's items. */
export function listResult<T>(page: Page<T>, request: PageRequest) {
  return { data: page.items, page: request.page, limit: request.limit, total: page.items.length, hasMore: page.hasMore, nextCursor: page.nextCursor };
}

/** Re-exported for the repositories: model modules import it from the table design (no client). */
export { withoutKeys } from './table-design.js';
