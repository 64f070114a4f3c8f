import type { Event } from '../events/event-model.js';
import { toOwner, type Owner } from './partner-model.js';
import { PartnerNotFoundError } from './partner-errors.js';
import { parsePartnerQuery } from './partner-listing-plan.js';
import { queryPartnerEvents } from './partner-listing-repository.js';
import { findPartnerByCode } from './partners-repository.js';

export type PartnerEvent = Omit<Event, 'version'> & { owner: Owner };

export interface PartnerListingBody {
  data: PartnerEvent[];
  status: 200 | 404;
  error?: 'NO_EVENTS_FOUND';
  message: string;
  total: number;
  page: number;
  limit: number;
  hasMore: boolean;
}

/** A listed event as partners see it: the event, its owner, no internal `version`. */
export function toPartnerEvent(event: Event, owner: Owner): PartnerEvent {
  const { version: _version, ...rest } = event;
  return { ...rest, owner };
}

/**
 * `GET /partner/events`: validates the query, looks the partner up and reads the page in parallel
 * (two independent reads), then answers 200 with the page or 404 NO_EVENTS_FOUND when the page is
 * empty. The 404 echoes the requested `page` and the effective `limit`: with the default query that
 * is the spec's `page` 0 / `limit` 20, and a client paging past the end sees where it asked.
 */
export async function listPartnerEvents(rawQuery: Readonly<Record<string, string | undefined>>, now: Date = new Date()): Promise<PartnerListingBody> {
  const query = parsePartnerQuery(rawQuery);
  const [partner, page] = await Promise.all([findPartnerByCode(query.referralCode), queryPartnerEvents(query, now)]);
  if (!partner) throw new PartnerNotFoundError(query.referralCode);
  const pagination = { page: query.page, limit: query.limit };
  if (page.items.length === 0) {
    return { data: [], status: 404, error: 'NO_EVENTS_FOUND', message: 'No events found for this partner and these filters.', total: 0, ...pagination, hasMore: false };
  }
  const owner = toOwner(partner);
  const data = page.items.map((event) => toPartnerEvent(event, owner));
  return { data, status: 200, message: 'Events retrieved successfully.', total: data.length, ...pagination, hasMore: page.hasMore };
}
