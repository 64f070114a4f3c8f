import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { INDEXES } from '../db/table-design.js';
import { fromEventItem, type Event } from '../events/event-model.js';
import { partnerKeys } from './partner-model.js';
import { planPartnerQuery, type PartnerListingQuery } from './partner-listing-plan.js';

type Item = Record<string, unknown>;

/** Batch size while a selective (metaData) filter drops items: fewer round trips. */
const FILTERED_BATCH = 25;

/**
 * Reads matching items in key order until `(page + 1) * limit + 1` are collected (the extra one tells
 * `hasMore`). Like the shared `queryPage`, but reads exactly the missing count when the plan's filter
 * drops almost nothing, so a page of the upcoming projections costs what it returns.
 */
async function collect(input: QueryCommandInput, wanted: number, batchExactly: boolean): Promise<Item[]> {
  const collected: Item[] = [];
  let exclusiveStartKey: QueryCommandInput['ExclusiveStartKey'];
  do {
    const remaining = wanted - collected.length;
    const { Items = [], LastEvaluatedKey } = await db.send(new QueryCommand({
      ...input,
      ExclusiveStartKey: exclusiveStartKey,
      Limit: Math.min(batchExactly ? remaining : Math.max(remaining, FILTERED_BATCH), 1_000),
    }));
    collected.push(...Items);
    exclusiveStartKey = LastEvaluatedKey;
  } while (exclusiveStartKey && collected.length < wanted);
  return collected;
}

/**
 * One page of a partner's listed events (published, public, linked by referral code) from the
 * sparse GSI1 projections: about `(page + 1) * limit + 1` items read, plus what a filter skips
 * (see `planPartnerQuery` for which combinations have one).
 */
export async function queryPartnerEvents(query: PartnerListingQuery, now: Date): Promise<{ items: Event[]; hasMore: boolean }> {
  const plan = planPartnerQuery(query, partnerKeys.codePartition(query.referralCode), now);
  const collected = await collect({
    TableName: tableName(),
    IndexName: INDEXES.byReferralCode.indexName,
    KeyConditionExpression: plan.keyCondition,
    FilterExpression: plan.filterExpression,
    ExpressionAttributeNames: plan.names,
    ExpressionAttributeValues: plan.values,
    ScanIndexForward: plan.scanIndexForward,
  }, (query.page + 1) * query.limit + 1, plan.filterMostlyMatches);
  const start = query.page * query.limit;
  return { items: collected.slice(start, start + query.limit).map(fromEventItem), hasMore: collected.length > start + query.limit };
}
