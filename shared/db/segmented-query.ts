import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.js';
import { InvalidCursorError, decodeCursor, encodeCursor, type CursorScope } from './cursor.js';
import { compareSortKeys, queryInput, type Page, type PageRequest, type PartitionQuery } from './query.js';
import { itemKey, sortValueOf } from './table-design.js';

type Item = Record<string, unknown>;

/** Items asked of one Query call at most. */
const MAX_QUERY_LIMIT = 1_000;

/**
 * Lists read from several partitions of the main table that share one sort-key space, e.g. the same
 * sort order of a list kept per filter value ("cells"), read as one ordered list:
 * - a *segment* is a set of partitions merged by sort key (a k-way merge: each partition is read in
 *   key order, the smallest head goes next);
 * - segments are read one after the other (e.g. the items that have a sort value, then those that
 *   have none, which follow in both directions).
 * A position in such a list is (segment, sort key), which is what its cursors hold. Every partition
 * is read in the list's direction (`ascending`), whatever its query says.
 */
export type Segment = readonly PartitionQuery[];

interface PartitionState {
  query: PartitionQuery;
  buffer: Item[];
  startKey: Item | undefined;
  started: boolean;
  done: boolean;
}

/**
 * The merged, key-ordered items of one segment, fetched lazily: a partition is read again only when
 * its buffered items are used up, with `Limit` = the caller's demand (the first reads split it among
 * the partitions), so a merge of k partitions reads at most about twice what it returns, plus k.
 */
class MergedSegment {
  private readonly states: PartitionState[];

  constructor(segment: Segment, after: string | undefined, private readonly ascending: boolean) {
    // Positions are main-table sort keys: an index query would need the index keys in ExclusiveStartKey too.
    if (segment.some((query) => query.index !== undefined)) throw new Error('segmentedPage reads partitions of the main table only.');
    this.states = segment.map((query) => ({
      query,
      buffer: [],
      startKey: after === undefined ? undefined : itemKey(query.partition, after),
      started: false,
      done: false,
    }));
  }

  /** The next item in key order, or undefined when every partition is used up. */
  async next(demand: number): Promise<Item | undefined> {
    const empty = this.states.filter((state) => state.buffer.length === 0 && !state.done);
    await Promise.all(empty.map((state) => this.fill(state, demand)));
    let best: PartitionState | undefined;
    for (const state of this.states) {
      const head = state.buffer[0];
      if (head === undefined) continue;
      const bestHead = best?.buffer[0];
      if (bestHead === undefined) {
        best = state;
        continue;
      }
      const order = compareSortKeys(String(sortValueOf(head)), String(sortValueOf(bestHead)));
      if (this.ascending ? order < 0 : order > 0) best = state;
    }
    return best?.buffer.shift();
  }

  private async fill(state: PartitionState, demand: number): Promise<void> {
    // The first read of a k-way merge asks each partition for its share; later reads for the whole demand.
    const share = state.started || this.states.length === 1 ? demand : Math.ceil(demand / this.states.length) + 1;
    do {
      const { Items = [], LastEvaluatedKey } = await db.send(new QueryCommand({
        ...queryInput({ ...state.query, ascending: this.ascending }),
        ExclusiveStartKey: state.startKey,
        Limit: Math.max(1, Math.min(share, MAX_QUERY_LIMIT)),
      }));
      state.started = true;
      state.buffer.push(...Items);
      state.startKey = LastEvaluatedKey;
      state.done = LastEvaluatedKey === undefined;
    } while (state.buffer.length === 0 && !state.done);
  }
}

export interface SegmentedPageOptions {
  /** The segments, read in order. */
  segments: readonly Segment[];
  ascending: boolean;
  /**
   * A condition the keys cannot express, evaluated on every item read. Without it every item read
   * is a match (an exact key read, whose cost is the page's depth).
   */
  matches?: (item: Item) => boolean;
  /** With `matches`: the most items one request examines (the bound of its cost). */
  budget: number;
  scope: CursorScope;
}

export interface SegmentedPage extends Page<Item> {
  /** Items read and examined. */
  examined: number;
  /**
   * With `matches` and a page number: the budget ran out before the requested page's first match was
   * reached. The caller refuses the page number (the client follows `nextCursor` from page 0 instead).
   */
  pageBeyondBudget: boolean;
}

/**
 * One page of a segmented list, with page numbers or cursors (API.md "Deep pages and cursors").
 * Exact reads (no `matches`) read `skip + limit + 1` items in key order (the extra one tells
 * `hasMore`); with a cursor, `limit + 1` from the cursor's position at any depth.
 *
 * With `matches`, at most `budget` items are examined. When the budget runs out before the page is
 * complete, the page holds the matches found so far (possibly none), `hasMore` is true and
 * `nextCursor` continues after the last item examined, so a client that follows `nextCursor` visits
 * every match exactly once, in order, at a bounded cost per request.
 */
export async function segmentedPage(request: PageRequest, options: SegmentedPageOptions): Promise<SegmentedPage> {
  const { segments, ascending, matches, budget, scope } = options;
  const fromCursor = request.cursor !== undefined;
  const [startSegment, after] = fromCursor ? positionOf(decodeCursor(scope, request.cursor as string, 2), segments.length) : [0, undefined];
  const skip = fromCursor ? 0 : request.page * request.limit;
  const wanted = skip + request.limit + 1;
  const collected: { item: Item; position: string[] }[] = [];
  let examined = 0;
  let lastExamined: string[] | undefined;
  let exhausted = true;
  for (let index = startSegment; index < segments.length; index += 1) {
    const segment = new MergedSegment(segments[index] as Segment, index === startSegment ? after : undefined, ascending);
    for (;;) {
      if (collected.length >= wanted || (matches && examined >= budget)) {
        exhausted = false;
        break;
      }
      const needed = wanted - collected.length;
      const demand = matches ? Math.min(budget - examined, Math.max(50, 2 * needed)) : needed;
      const item = await segment.next(demand);
      if (item === undefined) break;
      examined += 1;
      const position = [String(index), String(sortValueOf(item))];
      lastExamined = position;
      if (!matches || matches(item)) collected.push({ item, position });
    }
    if (!exhausted) break;
  }
  const page = collected.slice(skip, skip + request.limit);
  const last = page.at(-1);
  if (collected.length > skip + request.limit && last) {
    return { items: page.map((entry) => entry.item), hasMore: true, nextCursor: encodeCursor(scope, last.position), examined, pageBeyondBudget: false };
  }
  if (exhausted || !lastExamined) {
    return { items: page.map((entry) => entry.item), hasMore: false, nextCursor: null, examined, pageBeyondBudget: false };
  }
  // The budget ran out first: continue after the last item examined.
  return {
    items: page.map((entry) => entry.item),
    hasMore: true,
    nextCursor: encodeCursor(scope, lastExamined),
    examined,
    pageBeyondBudget: collected.length < skip,
  };
}

function positionOf(position: string[], segmentCount: number): [number, string] {
  const segment = Number(position[0]);
  // A cursor of this list always names one of its segments; anything else was forged.
  if (!Number.isInteger(segment) || segment < 0 || segment >= segmentCount || String(segment) !== position[0]) throw new InvalidCursorError();
  return [segment, position[1] as string];
}
