import { batchGetItems } from '../db/batch-get.js';
import { issuedFor, type CursorScope } from '../db/cursor.js';
import { queryMergedPage } from '../db/merged-query.js';
import { queryPage, type Page } from '../db/query.js';
import { type ItemKey, keyIdentity, keyOfItem } from '../db/table-design.js';
import { eventKeys, fromEventItem, type Event } from '../events/event-model.js';
import { metaCountValue, metaEntryTarget, partnerListingKeys } from '../events/event-partner-model.js';
import { planPartnerListing, type PartnerListingQuery } from './partner-listing-plan.js';

/**
 * The cursor scope of a listing: the code, and everything that shapes its order and membership; with
 * several metaData filters, also the one whose entries the pages read (`driver`).
 */
function scopeOf(query: PartnerListingQuery, driver: string | undefined): CursorScope {
  const several = Object.keys(query.metaData).length > 1;
  return {
    owner: `partner:${query.referralCode}`,
    list: 'partner-events',
    shape: { sort: query.sort, direction: query.direction, filter: query.filter, metaData: JSON.stringify(Object.entries(query.metaData)), ...(several ? { driver } : {}) },
  };
}


/**
 * The metaData filter whose entries are the candidates. With one, that one. With several: on a page
 * number (or page 0), the pair fewest listed events carry, from their counts (one BatchGet; ties go to
 * the first in the query); on a cursor page, the one the cursor was issued for (no read, so the pages
 * of one walk all read the same pair). A cursor issued for none of them is refused by the page read.
 */
async function chooseDriver(query: PartnerListingQuery): Promise<string | undefined> {
  const pairs = Object.entries(query.metaData);
  if (pairs.length < 2) return pairs[0]?.[0];
  const { cursor } = query;
  if (cursor !== undefined) return pairs.find(([key]) => issuedFor(scopeOf(query, key), cursor))?.[0] ?? pairs[0]?.[0];
  const countKeys = pairs.map(([key, value]) => partnerListingKeys.metaCount(query.referralCode, key, value));
  const counts = new Map((await batchGetItems(countKeys)).map((item) => [keyIdentity(keyOfItem(item)), metaCountValue(item)]));
  let best = 0;
  countKeys.forEach((key, index) => {
    if ((counts.get(keyIdentity(key)) ?? 0) < (counts.get(keyIdentity(countKeys[best] as ItemKey)) ?? 0)) best = index;
  });
  return pairs[best]?.[0];
}

/** A listed event and the workspace of its host (never answered: it resolves the event's image asset ids). */
export interface ListedEvent {
  workspaceId: string;
  event: Event;
}

/**
 * One page of a partner's listed events (README "Access patterns: partner listing"). The page is a
 * window of `limit` candidates in key order (one Query of `limit + 1`, or two merged for a metaData
 * filter with `filter=all` by start or createdAt), plus one BatchGet of the events when the candidates
 * are metaData entries (and, with several metaData filters on a page number, one BatchGet of their
 * counts first). Candidates the plan does not keep (other metaData pairs, events that ended since the
 * last sweep) are left out of the window, so a page may hold fewer than `limit` events while `hasMore`
 * is true; the cursor resumes after the window's last candidate either way, and page numbers are the
 * same windows, so both visit the same events. The partner's other events are never read.
 */
export async function queryPartnerEvents(query: PartnerListingQuery, now: Date): Promise<Page<ListedEvent>> {
  const driver = await chooseDriver(query);
  const plan = planPartnerListing(query, now, driver);
  const request = { page: query.page, limit: query.limit, cursor: query.cursor };
  const scope = scopeOf(query, driver);
  if ('copies' in plan.source) {
    const page = await queryPage(plan.source.copies, request, scope);
    return { ...page, items: page.items.map((item) => ({ workspaceId: String(item.workspaceId), event: fromEventItem(item) })).filter(({ event }) => plan.keeps(event)) };
  }
  const [only, ...others] = plan.source.entries;
  const page = only && others.length === 0 ? await queryPage(only, request, scope) : await queryMergedPage(plan.source.entries, request, scope);
  const targets = page.items.map(metaEntryTarget);
  const found = await batchGetItems(targets.map((target) => eventKeys.event(target.workspaceId, target.eventId)));
  const byId = new Map(found.map((item) => { const event = fromEventItem(item); return [event.id, event]; }));
  return {
    ...page,
    items: targets.flatMap(({ workspaceId, eventId }) => { const event = byId.get(eventId); return event ? [{ workspaceId, event }] : []; })
      .filter(({ event }) => plan.keeps(event)),
  };
}
