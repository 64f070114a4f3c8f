import type { PartitionQuery } from '../db/query.js';
import type { Event } from '../events/event-model.js';
import {
  META_INDEXES, isPartnerListed, isUpcoming, nowBoundary, partnerListingKeys, type ListingState, type PartnerFilter, type PartnerSort,
} from '../events/event-partner-model.js';
import { ReferralCodeRequiredError, PartnerQueryError } from './partner-errors.js';

/** Spec "Partner events (public)": query defaults and limits. */
export const PARTNER_LISTING = {
  defaultLimit: 20,
  maxLimit: 100,
  sorts: ['start', 'end', 'createdAt'] as const,
  directions: ['asc', 'desc'] as const,
  filters: ['all', 'upcoming', 'past'] as const,
  /** Query keys with a meaning of their own; every other key is a metaData equality filter. */
  reservedKeys: ['referral_code', 'page', 'limit', 'sort', 'direction', 'filter', 'cursor'] as const,
  /**
   * Page numbers stop at `page * limit >= 10000` (API.md "Deep pages and cursors"): reads grow with
   * `(page + 1) * limit`, and this endpoint is public, so an absurd page must not buy an unbounded read.
   * Deeper pages follow `nextCursor`, one Query each.
   */
  maxDepth: 10_000,
} as const;

const MAX_PAGE = 9_007_199_254_740_991;

export type { PartnerFilter, PartnerSort };

export interface PartnerListingQuery {
  referralCode: string;
  page: number;
  /** Already clamped to 1..100. */
  limit: number;
  sort: PartnerSort;
  direction: 'asc' | 'desc';
  filter: PartnerFilter;
  /**
   * metaData key -> required value, from every non-reserved query key. With several, the one with the
   * fewest listed events chooses the candidates (`queryPartnerEvents`), the others are checked.
   */
  metaData: Record<string, string>;
  /** `nextCursor` of the previous page, instead of a page number. */
  cursor?: string;
}

function present(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

function nonNegativeInteger(name: string, value: string): number {
  if (!/^\d{1,16}$/.test(value) || Number(value) > MAX_PAGE) {
    throw new PartnerQueryError({ path: name, message: 'must be a non-negative integer' });
  }
  return Number(value);
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (!present(value)) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new PartnerQueryError({ path: name, message: `must be one of ${allowed.join(', ')}` });
  }
  return value as T;
}

/**
 * Reads the raw query string of `GET /partner/events`. A missing or empty referral code wins over every
 * other problem (400 REFERRAL_CODE_REQUIRED); `limit` above 100 is clamped, below 1 or malformed is 400
 * INVALID_QUERY like any other malformed value. An empty value of another parameter of the listing
 * (`limit=`, `sort=`) is malformed too, as on the `/v1` lists (API.md): reading it as absent would hide
 * the client's mistake. A metaData filter may be empty: `city=` lists the events whose `city` is "".
 */
export function parsePartnerQuery(raw: Readonly<Record<string, string | undefined>>): PartnerListingQuery {
  const referralCode = raw.referral_code?.trim();
  if (!present(referralCode)) throw new ReferralCodeRequiredError();
  const empty = PARTNER_LISTING.reservedKeys.find((name) => name !== 'referral_code' && raw[name] === '');
  if (empty !== undefined) throw new PartnerQueryError({ path: empty, message: 'must not be empty; leave the parameter out instead' });
  const page = present(raw.page) ? nonNegativeInteger('page', raw.page) : 0;
  let limit: number = PARTNER_LISTING.defaultLimit;
  if (present(raw.limit)) {
    // Any whole number above the maximum is clamped, however many digits it has (API.md: Number() of a
    // long one is merely inexact, or Infinity); only a malformed value is refused.
    if (!/^\d+$/.test(raw.limit)) throw new PartnerQueryError({ path: 'limit', message: 'must be an integer of at least 1' });
    limit = Math.min(Number(raw.limit), PARTNER_LISTING.maxLimit);
    if (limit < 1) throw new PartnerQueryError({ path: 'limit', message: 'must be at least 1' });
  }
  const cursor = present(raw.cursor) ? raw.cursor : undefined;
  if (cursor !== undefined && present(raw.page)) {
    throw new PartnerQueryError({ path: 'cursor', message: 'cannot be combined with page; follow nextCursor alone' });
  }
  if (page * limit >= PARTNER_LISTING.maxDepth) {
    throw new PartnerQueryError({ path: 'page', message: `page * limit must stay below ${PARTNER_LISTING.maxDepth}; to read deeper, follow nextCursor with the cursor parameter` });
  }
  if (cursor !== undefined && !/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) {
    throw new PartnerQueryError({ path: 'cursor', message: 'is not a cursor this list issued; pass the nextCursor of the previous page unchanged' });
  }
  // fromEntries defines own properties, so a key such as `__proto__` stays a filter instead of
  // silently vanishing into the prototype (and the listing going unfiltered).
  const metaData: Record<string, string> = Object.fromEntries(
    Object.entries(raw).filter((entry): entry is [string, string] =>
      entry[1] !== undefined && !(PARTNER_LISTING.reservedKeys as readonly string[]).includes(entry[0])),
  );
  return {
    referralCode,
    page,
    limit,
    sort: oneOf('sort', raw.sort, PARTNER_LISTING.sorts, 'start'),
    direction: oneOf('direction', raw.direction, PARTNER_LISTING.directions, 'asc'),
    filter: oneOf('filter', raw.filter, PARTNER_LISTING.filters, 'all'),
    metaData,
    ...(cursor !== undefined ? { cursor } : {}),
  };
}

/**
 * How one listing request reads (README "Access patterns: partner listing"): the key range of the
 * candidates, and what a candidate must satisfy to be on the page. Candidates are full events (the
 * code's GSI1 partition) or, with metaData filters, the entries of one filter's pair (then one
 * BatchGet of the events).
 */
export interface PartnerListingPlan {
  source: { copies: PartitionQuery } | { entries: PartitionQuery[] };
  /**
   * Whether a candidate belongs on the page: still listed under this code, every metaData pair
   * matches, and its state by the clock is the filter's. Drops only what the key range cannot know:
   * the other metaData pairs, and events that ended since the end sweeper last ran.
   */
  keeps: (event: Event) => boolean;
}

const STATES: Record<Exclude<PartnerFilter, 'all'>, ListingState> = { upcoming: 'UPCOMING', past: 'PAST' };

/**
 * Plans a listing request at `now`; the same query at the same time always reads the same range.
 * `driver` is the metaData key whose entries are the candidates (default: the first filter).
 */
export function planPartnerListing(query: Omit<PartnerListingQuery, 'page' | 'limit'>, now: Date, driver?: string): PartnerListingPlan {
  const ascending = query.direction === 'asc';
  const code = query.referralCode;
  const pairs = Object.entries(query.metaData);
  const keeps = (event: Event) => isPartnerListed(event) && event.referral_code === code
    && pairs.every(([key, value]) => event.metaData !== undefined && Object.hasOwn(event.metaData, key) && event.metaData[key] === value)
    && (query.filter === 'all' || isUpcoming(event, now) === (query.filter === 'upcoming'));
  const boundary = nowBoundary(now);
  const first = pairs.find(([key]) => key === driver) ?? pairs[0];
  if (!first) {
    const partition = partnerListingKeys.codePartition(code);
    const byCode = (range: PartitionQuery['range']): PartitionQuery => ({ index: 'byReferralCode', partition, range, ascending });
    if (query.filter === 'all') return { source: { copies: byCode({ beginsWith: partnerListingKeys.allPrefix(query.sort) }) }, keeps };
    if (query.sort === 'end') {
      const prefix = partnerListingKeys.allPrefix('end');
      const range: [string, string] = query.filter === 'upcoming' ? [`${prefix}${boundary}`, `${prefix}~`] : [prefix, `${prefix}${boundary}`];
      return { source: { copies: byCode({ between: range }) }, keeps };
    }
    return { source: { copies: byCode({ beginsWith: partnerListingKeys.statePrefix(STATES[query.filter], query.sort) }) }, keeps };
  }
  const [key, value] = first;
  if (query.sort === 'end') {
    const range = query.filter === 'upcoming' ? { gt: boundary } : query.filter === 'past' ? { lte: boundary } : undefined;
    return { source: { entries: [{ partition: partnerListingKeys.metaPartition(code, key, value), ...(range ? { range } : {}), ascending }] }, keeps };
  }
  const states: ListingState[] = query.filter === 'all' ? ['UPCOMING', 'PAST'] : [STATES[query.filter]];
  const index = META_INDEXES[query.sort];
  return { source: { entries: states.map((state) => ({ index, partition: partnerListingKeys.metaStatePartition(code, key, value, state), ascending })) }, keeps };
}
