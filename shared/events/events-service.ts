import type { PageRequest, Page } from '../db/query.js';
import { followRename } from '../checkouts/checkout-renames.js';
import { readModifyWrite } from '../db/read-modify-write.js';
import { NotFoundError, ValidationError, type ErrorDetail } from '../errors.js';
import { isId, newId } from '../ids.js';
import { mergePatch } from '../model/merge-patch.js';
import { isWebUrl } from '../model/primitives.js';
import { checkEchoed, dropEchoed, sameContent } from '../model/round-trip.js';
import type { EventListFilter } from './event-listing-model.js';
import { EVENT_LIMITS, EVENT_ROUND_TRIP, eventKeys, type CreateEventInput, type Event, type Product, type UpdateEventInput } from './event-model.js';
import { findEvent, insertEvent, listEvents as listEventPage, saveEvent } from './events-repository.js';
import { referralCodeExists } from '../partners/partners-repository.js';
import { eventWebhookEvents } from './event-webhooks.js';

type ProductInput = { id?: string; name: string; price: number; required: boolean; currency?: 'USD' | 'CAD' };

/**
 * The price range of an event: lowest and highest price among REQUIRED products, fees excluded, in
 * cents. With no required product the range is 0/0 (the event can be attended without buying one).
 */
export function priceRange(products: readonly Pick<Product, 'price' | 'required'>[]): { minPrice: number; maxPrice: number } {
  const prices = products.filter((product) => product.required).map((product) => product.price);
  if (prices.length === 0) return { minPrice: 0, maxPrice: 0 };
  return { minPrice: Math.min(...prices), maxPrice: Math.max(...prices) };
}

/**
 * Resolves product inputs into products: entries carrying an `id` must name a product the event
 * already has (kept), the others get a minted id. Currency defaults to the event's, else USD.
 */
export function resolveProducts(inputs: readonly ProductInput[], existing: readonly Product[], eventCurrency: 'USD' | 'CAD' | undefined): Product[] {
  const known = new Set(existing.map((product) => product.id));
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  const products = inputs.map((input, index) => {
    if (input.id !== undefined) {
      if (!known.has(input.id)) details.push({ path: `products[${index}].id`, message: 'is not a product of this event' });
      else if (seen.has(input.id)) details.push({ path: `products[${index}].id`, message: 'appears twice' });
      seen.add(input.id);
    }
    return {
      id: input.id ?? newId(),
      name: input.name,
      price: input.price,
      required: input.required,
      currency: input.currency ?? eventCurrency ?? 'USD',
    };
  });
  if (details.length > 0) throw new ValidationError(details);
  return products;
}

function assertChronology(event: Pick<Event, 'start' | 'end'>): void {
  if (Date.parse(event.end) < Date.parse(event.start)) throw new ValidationError({ path: 'end', message: 'must not be before start' });
}

const IMAGE_FIELDS = ['image', 'images'] as const;

/**
 * Every `image`/`images` entry the write adds is an absolute `https:`/`http:` URL or an image asset id:
 * partner sites and widgets render these, so `javascript:` or free text is refused (422 on its path).
 * Entries the event already held are not judged again, so a GET body sent back stays accepted.
 */
function assertImageReferences(event: Pick<Event, 'image' | 'images'>, previous?: Pick<Event, 'image' | 'images'>): void {
  const details = IMAGE_FIELDS.flatMap((field) => {
    const held = new Set(previous?.[field]);
    return (event[field] ?? []).flatMap((entry, index) => (held.has(entry) || isId(entry) || isWebUrl(entry)
      ? []
      : [{ path: `${field}[${index}]`, message: 'must be an absolute https: or http: URL, or an image asset id' }]));
  });
  if (details.length > 0) throw new ValidationError(details);
}

/** DynamoDB items stop at 400 KB and each event is stored with its sorted copies: refuse early, as a 422. */
export function assertEventSize(event: Event): void {
  const bytes = Buffer.byteLength(JSON.stringify(event));
  if (bytes > EVENT_LIMITS.maxBytes) {
    throw new ValidationError({ path: '', message: `The event is too large (${bytes} bytes serialized; at most ${EVENT_LIMITS.maxBytes}). Shorten descriptionBlocks or contentBlocks.` });
  }
}

/** Builds a new event from a validated create body: minted ids, computed prices, version 1. */
export function buildEvent(body: CreateEventInput, now: Date = new Date()): Event {
  const timestamp = now.toISOString();
  const { products: productInputs, ...fields } = dropEchoed(body, EVENT_ROUND_TRIP);
  // A copy's product ids are not this event's: every product of a new event gets a new id.
  const products = resolveProducts(productInputs.map(({ id: _copied, ...product }) => product), [], body.currency);
  const event: Event = { ...fields, id: newId(now), products, ...priceRange(products), version: 1, createdAt: timestamp, updatedAt: timestamp };
  assertImageReferences(event);
  assertEventSize(event);
  return event;
}

/** Applies a validated partial update to an event: recomputes prices, bumps the version. */
export function applyEventUpdate(previous: Event, patch: UpdateEventInput, now: Date = new Date()): Event {
  const { products: productInputs, ...fields } = patch;
  const next: Event = { ...mergePatch(previous, fields), version: previous.version + 1, updatedAt: now.toISOString() };
  if (productInputs !== undefined) next.products = resolveProducts(productInputs, previous.products, next.currency);
  assertChronology(next);
  assertImageReferences(next, previous);
  const event = { ...next, ...priceRange(next.products) };
  assertEventSize(event);
  return event;
}

/**
 * Reference check (API.md "Round trips and references"): the referral code names a partner (one GetItem
 * of the code's guard item), else 422 on `referral_code`.
 */
async function assertReferralCodeExists(code: string): Promise<void> {
  if (!(await referralCodeExists(code))) throw new ValidationError({ path: 'referral_code', message: 'is not the referral code of any partner' });
}

/** Creates an event with its products. */
export async function createEvent(workspaceId: string, body: CreateEventInput): Promise<Event> {
  if (body.referral_code !== undefined) await assertReferralCodeExists(body.referral_code);
  const event = buildEvent(body);
  await insertEvent(workspaceId, event, { also: eventWebhookEvents(workspaceId, undefined, event) });
  return event;
}

/** GET by id: eventually consistent (the version on the answer says what was seen); 404 when absent. */
export async function getEvent(workspaceId: string, eventId: string): Promise<Event> {
  const event = await findEvent(workspaceId, eventId);
  if (!event) throw new NotFoundError('Event');
  return event;
}

/**
 * Updates an event (`readModifyWrite`): with `ifMatch` a stale version is a 409; without it the update
 * is re-applied on the fresh event until it lands, so no concurrent change is lost.
 */
export async function updateEvent(workspaceId: string, eventId: string, patch: UpdateEventInput, ifMatch?: number): Promise<Event> {
  const event = await readModifyWrite({
    resource: 'event',
    ifMatch,
    read: async () => {
      // Strong: the update is decided on what is read.
      const event = await findEvent(workspaceId, eventId, { consistent: true });
      if (!event) throw new NotFoundError('Event');
      return event;
    },
    write: async (current) => {
      // A code the event already carries was checked when it was set; a new one must name a partner.
      if (typeof patch.referral_code === 'string' && patch.referral_code !== current.referral_code) await assertReferralCodeExists(patch.referral_code);
      const next = applyEventUpdate(current, checkEchoed(current, patch, EVENT_ROUND_TRIP));
      if (sameContent({ ...next, version: current.version, updatedAt: current.updatedAt }, current)) return current;
      await saveEvent(workspaceId, current, next, { also: eventWebhookEvents(workspaceId, current, next) });
      return next;
    },
  });
  // Checkouts sorted by event name keep the name in their list keys: they follow a rename.
  if (patch.name !== undefined) await followRename(workspaceId, { field: 'event', id: eventId, name: event.name, key: eventKeys.event(workspaceId, eventId) });
  return event;
}

/** One page of the workspace's events (README "Events and the partner listing: access patterns"). */
export function listEvents(workspaceId: string, filter: EventListFilter, request: PageRequest): Promise<Page<Event>> {
  return listEventPage(workspaceId, filter, request);
}
