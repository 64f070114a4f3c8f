import { QueryCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { InvalidCursorError, encodeCursor } from '../../../shared/db/cursor.js';
import { segmentedPage } from '../../../shared/db/segmented-query.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const scope = { owner: 'ws', list: 'things' };

/** A fake table: partition -> sort keys; Query honours order, ExclusiveStartKey and Limit like DynamoDB. */
function serve(partitions: Record<string, string[]>) {
  ddbMock.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string>; ScanIndexForward?: boolean; ExclusiveStartKey?: { SK: string }; Limit?: number }) => {
    const ascending = input.ScanIndexForward ?? true;
    const keys = [...(partitions[input.ExpressionAttributeValues[':pk'] as string] ?? [])].sort();
    if (!ascending) keys.reverse();
    const after = input.ExclusiveStartKey?.SK;
    const rest = after === undefined ? keys : keys.filter((key) => (ascending ? key > after : key < after));
    const page = rest.slice(0, input.Limit ?? rest.length);
    const more = rest.length > page.length;
    return { Items: page.map((key) => ({ PK: input.ExpressionAttributeValues[':pk'], SK: key, id: key })), ...(more ? { LastEvaluatedKey: { PK: 'x', SK: page.at(-1) } } : {}) };
  });
}

const ids = (items: Record<string, unknown>[]) => items.map((item) => item.id);
const segment = (...partitions: string[]) => partitions.map((partition) => ({ partition }));

beforeEach(() => ddbMock.reset());

describe('segmentedPage', () => {
  it('merges the partitions of a segment by sort key, then reads the next segment', async () => {
    serve({ a: ['1', '4', '6'], b: ['2', '3', '9'], none: ['5', '0'] });
    const page = await segmentedPage({ page: 0, limit: 10 }, { segments: [segment('a', 'b'), segment('none')], ascending: true, budget: 100, scope });
    expect(ids(page.items)).toEqual(['1', '2', '3', '4', '6', '9', '0', '5']);
    expect(page).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('merges in descending order too', async () => {
    serve({ a: ['1', '4'], b: ['2', '3'] });
    const page = await segmentedPage({ page: 0, limit: 3 }, { segments: [segment('a', 'b')], ascending: false, budget: 100, scope });
    expect(ids(page.items)).toEqual(['4', '3', '2']);
    expect(page.hasMore).toBe(true);
  });

  it('continues from a cursor in the same order as page numbers, across segments', async () => {
    serve({ a: ['1', '4', '6'], b: ['2', '3', '9'], none: ['5', '0'] });
    const options = { segments: [segment('a', 'b'), segment('none')], ascending: true, budget: 100, scope };
    const byPage: unknown[] = [];
    for (let page = 0; page < 3; page += 1) byPage.push(...ids((await segmentedPage({ page, limit: 3 }, options)).items));
    const byCursor: unknown[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await segmentedPage({ page: 0, limit: 3, cursor: cursor ?? undefined }, options);
      byCursor.push(...ids(page.items));
      cursor = page.nextCursor;
    } while (cursor);
    expect(byCursor).toEqual(byPage);
    expect(byCursor).toEqual(['1', '2', '3', '4', '6', '9', '0', '5']);
  });

  it('reads about one page from a merge of partitions, not a page from each', async () => {
    serve({ a: ['01', '03', '05', '07', '09', '11'], b: ['02', '04', '06', '08', '10', '12'] });
    await segmentedPage({ page: 0, limit: 4 }, { segments: [segment('a', 'b')], ascending: true, budget: 100, scope });
    const limits = ddbMock.commandCalls(QueryCommand).map((call) => call.args[0].input.Limit);
    expect(limits).toEqual([4, 4]);
  });

  it('examines at most the budget, answering the matches found and a cursor after the last item examined', async () => {
    serve({ a: Array.from({ length: 30 }, (_, index) => String(index).padStart(2, '0')) });
    const matches = (item: Record<string, unknown>) => Number(item.id) % 10 === 7;
    const options = { segments: [segment('a')], ascending: true, matches, budget: 12, scope };
    const first = await segmentedPage({ page: 0, limit: 5 }, options);
    expect(ids(first.items)).toEqual(['07']);
    expect(first).toMatchObject({ hasMore: true, examined: 12, pageBeyondBudget: false });
    const second = await segmentedPage({ page: 0, limit: 5, cursor: first.nextCursor as string }, options);
    expect(ids(second.items)).toEqual(['17']);
    const third = await segmentedPage({ page: 0, limit: 5, cursor: second.nextCursor as string }, options);
    expect(ids(third.items)).toEqual(['27']);
    expect(third).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('says when a page number lies beyond what the budget reaches', async () => {
    serve({ a: Array.from({ length: 30 }, (_, index) => String(index).padStart(2, '0')) });
    const matches = (item: Record<string, unknown>) => Number(item.id) % 10 === 7;
    const page = await segmentedPage({ page: 2, limit: 1 }, { segments: [segment('a')], ascending: true, matches, budget: 12, scope });
    expect(page).toMatchObject({ items: [], pageBeyondBudget: true });
  });

  it('refuses a cursor naming a segment the list does not have', async () => {
    serve({ a: ['1'] });
    const forged = encodeCursor(scope, ['5', '1']);
    await expect(segmentedPage({ page: 0, limit: 1, cursor: forged }, { segments: [segment('a')], ascending: true, budget: 10, scope })).rejects.toBeInstanceOf(InvalidCursorError);
  });
});
