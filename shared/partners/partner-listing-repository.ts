import { queryPage } from '../db/query.js';
import { tableName } from '../db/client.js';
import { INDEXES } from '../db/table-design.js';
import { eventKeys, type Event } from '../events/event-entity.js';
import { toEvent } from '../events/events-repository.js';
import { planPartnerQuery, type PartnerListingQuery } from './partner-listing-plan.js';

/**
 * One page of a partner's listed events (published, public, linked by referral code) from the
 * sparse GSI1 projection: reads about `(page + 1) * limit + 1` items when no filter expression
 * applies, plus the events a filter skips otherwise.
 */
export async function queryPartnerEvents(query: PartnerListingQuery, now: Date): Promise<{ items: Event[]; hasMore: boolean }> {
  const plan = planPartnerQuery(query, eventKeys.partnerPartition(query.referralCode), now);
  const { items, hasMore } = await queryPage({
    TableName: tableName(),
    IndexName: INDEXES.byReferralCode.indexName,
    KeyConditionExpression: plan.keyCondition,
    FilterExpression: plan.filterExpression,
    ExpressionAttributeNames: plan.names,
    ExpressionAttributeValues: plan.values,
    ScanIndexForward: plan.scanIndexForward,
  }, query.page, query.limit);
  return { items: items.map(toEvent), hasMore };
}
