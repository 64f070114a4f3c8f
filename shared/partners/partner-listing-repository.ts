import { batchGetItems } from '../db/batch-get.js';
import type { CursorScope } from '../db/cursor.js';
import { queryMergedPage } from '../db/merged-query.js';
import { queryPage, type Page } from '../db/query.js';
import { eventKeys, fromEventItem, type Event } from '../events/event-model.js';
import { metaEntryTarget } from '../events/event-partner-model.js';
import { planPartnerListing, type PartnerListingQuery } from './partner-listing-plan.js';

/** The cursor scope of a listing: the code, and everything that shapes its order and membership. */
function scopeOf(query: PartnerListingQuery): CursorScope {
  return {
    owner: `partner:${query.referralCode}`,
    list: 'partner-events',
    shape: { sort: query.sort, direction: query.direction, filter: query.filter, metaData: JSON.stringify(Object.entries(query.metaData)) },
  };
}

/**
 * One page of a partner's listed events (README "Access patterns: partner listing"). The page is a
 * window of `limit` candidates in key order (one Query of `limit + 1`, or two merged for a metaData
 * filter with `filter=all` by start or createdAt), plus one BatchGet of the events when the candidates
 * are metaData entries. Candidates the plan does not keep (other metaData pairs, events that ended
 * since the last sweep) are left out of the window, so a page may hold fewer than `limit` events while
 * `hasMore` is true; the cursor resumes after the window's last candidate either way, and page numbers
 * are the same windows, so both visit the same events. The partner's other events are never read.
 */
export async function queryPartnerEvents(query: PartnerListingQuery, now: Date): Promise<Page<Event>> {
  const plan = planPartnerListing(query, now);
  const request = { page: query.page, limit: query.limit, cursor: query.cursor };
  const scope = scopeOf(query);
  if ('copies' in plan.source) {
    const page = await queryPage(plan.source.copies, request, scope);
    return { ...page, items: page.items.map(fromEventItem).filter(plan.keeps) };
  }
  const [only, ...others] = plan.source.entries;
  const page = only && others.length === 0 ? await queryPage(only, request, scope) : await queryMergedPage(plan.source.entries, request, scope);
  const targets = page.items.map(metaEntryTarget);
  const found = await batchGetItems(targets.map((target) => eventKeys.event(target.workspaceId, target.eventId)));
  const byId = new Map(found.map((item) => { const event = fromEventItem(item); return [event.id, event]; }));
  return { ...page, items: targets.flatMap((target) => byId.get(target.eventId) ?? []).filter(plan.keeps) };
}
