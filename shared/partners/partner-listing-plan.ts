import { INDEXES } from '../db/table-design.js';
import { PARTNER_ORDERS, type PartnerSort } from '../events/event-listing-model.js';
import { ReferralCodeRequiredError, PartnerQueryError } from './partner-errors.js';

/** Spec "Partner events (public)": query defaults and limits. */
export const PARTNER_LISTING = {
  defaultLimit: 20,
  maxLimit: 100,
  sorts: ['start', 'end', 'createdAt'] as const,
  directions: ['asc', 'desc'] as const,
  filters: ['all', 'upcoming', 'past'] as const,
  /** Query keys with a meaning of their own; every other key is a metaData equality filter. */
  reservedKeys: ['referral_code', 'page', 'limit', 'sort', 'direction', 'filter'] as const,
  /**
   * Deepest position a page may reach: reads grow with `(page + 1) * limit`, and this endpoint is
   * public, so an absurd page must not buy an unbounded read.
   */
  maxDepth: 10_000,
} as const;

const MAX_PAGE = 9_007_199_254_740_991;

export type PartnerFilter = (typeof PARTNER_LISTING.filters)[number];

export interface PartnerListingQuery {
  referralCode: string;
  page: number;
  /** Already clamped to 1..100. */
  limit: number;
  sort: PartnerSort;
  direction: 'asc' | 'desc';
  filter: PartnerFilter;
  /** metaData key -> required value, from every non-reserved query key. */
  metaData: Record<string, string>;
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
 * Reads the raw query string of `GET /partner/events`. A missing referral code wins over every other
 * problem (400 REFERRAL_CODE_REQUIRED); `limit` above 100 is clamped, below 1 or malformed is 400
 * INVALID_QUERY like any other malformed value. An empty value counts as absent (widgets often
 * send `page=`).
 */
export function parsePartnerQuery(raw: Readonly<Record<string, string | undefined>>): PartnerListingQuery {
  const referralCode = raw.referral_code?.trim();
  if (!present(referralCode)) throw new ReferralCodeRequiredError();
  const page = present(raw.page) ? nonNegativeInteger('page', raw.page) : 0;
  let limit: number = PARTNER_LISTING.defaultLimit;
  if (present(raw.limit)) {
    limit = nonNegativeInteger('limit', raw.limit);
    if (limit < 1) throw new PartnerQueryError({ path: 'limit', message: 'must be at least 1' });
    limit = Math.min(limit, PARTNER_LISTING.maxLimit);
  }
  if ((page + 1) * limit > PARTNER_LISTING.maxDepth) {
    throw new PartnerQueryError({ path: 'page', message: `page * limit must stay below ${PARTNER_LISTING.maxDepth} events` });
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
  };
}

/** How one listing request reads GSI1: a key condition, and a filter only where keys cannot express it. */
export interface PartnerQueryPlan {
  keyCondition: string;
  filterExpression?: string;
  names: Record<string, string>;
  values: Record<string, string>;
  scanIndexForward: boolean;
  /**
   * True when the filter drops few items (only the end-of-event bookkeeping filters): read exactly
   * what the page still needs. metaData filters may drop many, so those read in bigger batches.
   */
  filterMostlyMatches: boolean;
}

/** Above every id character: `<time>#~` sorts after every `<time>#<id>` of the same time. */
const AFTER_IDS = '~';

/**
 * Plans the GSI1 Query of one listing request. The partition is the referral code; the sort-key
 * prefix picks the order, and `filter` becomes a key range wherever the order allows:
 * - `sort=end`: upcoming/past are exact key ranges on `end` (no wasted reads);
 * - `sort=start|createdAt&filter=upcoming`: the upcoming-only projections (TTL at `end`); the `endKey`
 *   filter only drops events that ended since the last TTL sweep;
 * - `sort=start&filter=past`: key range `start <= now`, filter `end <= now` drops only ongoing events;
 * - `sort=createdAt&filter=past`: filter only (reads the upcoming events it skips; documented).
 * metaData pairs are filter expressions: they cost reads for the events they skip.
 */
export function planPartnerQuery(query: Omit<PartnerListingQuery, 'page' | 'limit'>, partition: string, now: Date): PartnerQueryPlan {
  const nowKey = now.toISOString();
  const names: Record<string, string> = { '#pk': INDEXES.byReferralCode.partitionKey, '#sk': INDEXES.byReferralCode.sortKey };
  const values: Record<string, string> = { ':pk': partition };
  const filters: string[] = [];
  const range = (lo: string, hi: string) => {
    values[':lo'] = lo;
    values[':hi'] = hi;
    return '#pk = :pk AND #sk BETWEEN :lo AND :hi';
  };
  const prefixed = (prefix: string) => {
    values[':prefix'] = prefix;
    return '#pk = :pk AND begins_with(#sk, :prefix)';
  };
  const endFilter = (operator: '>' | '<=') => {
    names['#end'] = 'endKey';
    values[':now'] = nowKey;
    filters.push(`#end ${operator} :now`);
  };
  let keyCondition: string;
  if (query.filter === 'all') {
    keyCondition = prefixed(PARTNER_ORDERS[query.sort].prefix);
  } else if (query.sort === 'end') {
    const prefix = PARTNER_ORDERS.end.prefix;
    const boundary = `${prefix}${nowKey}#${AFTER_IDS}`;
    keyCondition = query.filter === 'upcoming' ? range(boundary, `${prefix}${AFTER_IDS}`) : range(prefix, boundary);
  } else if (query.filter === 'upcoming') {
    keyCondition = prefixed(PARTNER_ORDERS[query.sort === 'start' ? 'upcomingStart' : 'upcomingCreatedAt'].prefix);
    endFilter('>');
  } else if (query.sort === 'start') {
    const prefix = PARTNER_ORDERS.start.prefix;
    keyCondition = range(prefix, `${prefix}${nowKey}#${AFTER_IDS}`);
    endFilter('<=');
  } else {
    keyCondition = prefixed(PARTNER_ORDERS.createdAt.prefix);
    endFilter('<=');
  }
  const metaEntries = Object.entries(query.metaData);
  if (metaEntries.length > 0) names['#md'] = 'metaData';
  metaEntries.forEach(([key, value], index) => {
    names[`#m${index}`] = key;
    values[`:m${index}`] = value;
    filters.push(`#md.#m${index} = :m${index}`);
  });
  return {
    keyCondition,
    ...(filters.length > 0 ? { filterExpression: filters.join(' AND ') } : {}),
    names,
    values,
    scanIndexForward: query.direction === 'asc',
    filterMostlyMatches: metaEntries.length === 0,
  };
}
