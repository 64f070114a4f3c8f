import { blobUrls } from '../blob-store/index.js';
import { InvalidCursorError } from '../db/cursor.js';
import { openCursor, sealCursor } from '../db/sealed-cursor.js';
import type { Event } from '../events/event-model.js';
import { resolveWorkspaceImageReferences, type WorkspaceImageReference } from '../images/images-service.js';
import { toOwner, type Owner } from './partner-model.js';
import { PartnerNotFoundError, PartnerQueryError } from './partner-errors.js';
import { PARTNER_LISTING, parsePartnerQuery } from './partner-listing-plan.js';
import { queryPartnerEvents, type ListedEvent } from './partner-listing-repository.js';
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
  /** On 200: the cursor of the next page (`null` on the last one). */
  nextCursor?: string | null;
}

/** A listed event as partners see it: the event, its owner, no internal `version`. */
export function toPartnerEvent(event: Event, owner: Owner): PartnerEvent {
  const { version: _version, ...rest } = event;
  return { ...rest, owner };
}

/** What answering the listing needs from the request: image URLs of the local blob store depend on it. */
export interface PartnerListingContext {
  /** API root as the client called it. */
  baseUrl: string;
}

const IMAGE_FIELDS = ['image', 'images'] as const;

/**
 * The page's events with every `image`/`images` entry that is an image asset id of the event's own
 * workspace turned into the asset's download URL (partners have no key to resolve it, and widgets show
 * only URLs). An id that is no asset of that workspace is left out, never looked up elsewhere; URLs stay.
 * One BatchGet of the page's distinct asset ids (per 100), and no read when the page has none.
 */
async function withImageUrls(items: readonly ListedEvent[], context: PartnerListingContext): Promise<Event[]> {
  const references: WorkspaceImageReference[] = items.flatMap(({ workspaceId, event }) =>
    IMAGE_FIELDS.flatMap((field) => (event[field] ?? []).map((reference) => ({ workspaceId, reference }))));
  const resolve = await resolveWorkspaceImageReferences(references, blobUrls(), context.baseUrl);
  return items.map(({ workspaceId, event }) => {
    const resolved: Event = { ...event };
    for (const field of IMAGE_FIELDS) {
      const entries = event[field];
      if (entries) resolved[field] = entries.flatMap((reference) => resolve({ workspaceId, reference }) ?? []);
    }
    return resolved;
  });
}

/** What the listing's cursors are sealed for (cursors are sealed: anonymous callers never read a position). */
const SEALED_FOR = 'partner-events';

/**
 * `GET /partner/events`: validates the query, looks the partner up and reads the page in parallel
 * (two independent reads), resolves the page's image asset ids (one more read, only when there are
 * any), then answers 200 with the page and `nextCursor`, or 404 NO_EVENTS_FOUND
 * when nothing matches up to the end of the list. The 404 carries `page` 0 and `limit` 20 whatever was
 * asked, as the spec's error table gives it. A window whose candidates all fail the other metaData
 * filters is a 200 with `data: []`, `hasMore: true` and a cursor.
 */
export async function listPartnerEvents(rawQuery: Readonly<Record<string, string | undefined>>, context: PartnerListingContext, now: Date = new Date()): Promise<PartnerListingBody> {
  const query = parsePartnerQuery(rawQuery);
  const readPage = async () => {
    const cursor = query.cursor === undefined ? undefined : await openCursor(query.cursor, SEALED_FOR);
    const read = await queryPartnerEvents({ ...query, cursor }, now);
    return { ...read, nextCursor: read.nextCursor ? await sealCursor(read.nextCursor, SEALED_FOR) : read.nextCursor };
  };
  const [partner, page] = await Promise.all([findPartnerByCode(query.referralCode), readPage().catch(flatCursorError)]);
  if (!partner) throw new PartnerNotFoundError(query.referralCode);
  if (page.items.length === 0 && !page.hasMore) {
    return { data: [], status: 404, error: 'NO_EVENTS_FOUND', message: 'No events found for this partner and these filters.', total: 0, page: 0, limit: PARTNER_LISTING.defaultLimit, hasMore: false };
  }
  const pagination = { page: query.page, limit: query.limit };
  const owner = toOwner(partner);
  const data = (await withImageUrls(page.items, context)).map((event) => toPartnerEvent(event, owner));
  return { data, status: 200, message: 'Events retrieved successfully.', total: data.length, ...pagination, hasMore: page.hasMore, nextCursor: page.nextCursor };
}

/** A cursor of another list is the listing's flat 400 INVALID_QUERY, like any malformed parameter. */
function flatCursorError(error: unknown): never {
  if (error instanceof InvalidCursorError) throw new PartnerQueryError({ path: 'cursor', message: 'is not a cursor this list issued; pass the nextCursor of the previous page unchanged' });
  throw error;
}
