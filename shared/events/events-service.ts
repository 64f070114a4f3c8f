import { ConflictError, ValidationError, type ErrorDetail } from '../errors.js';
import { newId } from '../ids.js';
import { EVENT_LIMITS, type CreateEventBody, type UpdateEventBody } from '../http/routes/events.js';
import type { Event, Product } from './event-entity.js';
import { getEvent, insertEvent, replaceEvent } from './events-repository.js';

/** Attempts of the read-modify-write loop when no If-Match was sent. */
const UPDATE_ATTEMPTS = 5;

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

/** DynamoDB items stop at 400 KB and each event is stored with its sorted copies: refuse early, as a 422. */
export function assertEventSize(event: Event): void {
  const bytes = Buffer.byteLength(JSON.stringify(event));
  if (bytes > EVENT_LIMITS.maxBytes) {
    throw new ValidationError({ path: '', message: `The event is too large (${bytes} bytes serialized; at most ${EVENT_LIMITS.maxBytes}). Shorten descriptionBlocks or contentBlocks.` });
  }
}

/** Builds a new event from a validated create body: minted ids, computed prices, version 1. */
export function buildEvent(body: CreateEventBody, now: Date = new Date()): Event {
  const timestamp = now.toISOString();
  const { products: productInputs, ...fields } = body;
  const products = resolveProducts(productInputs, [], body.currency);
  const event: Event = { ...fields, id: newId(now), products, ...priceRange(products), version: 1, createdAt: timestamp, updatedAt: timestamp };
  assertEventSize(event);
  return event;
}

/** Applies a validated partial update to an event: recomputes prices, bumps the version. */
export function applyEventUpdate(previous: Event, patch: UpdateEventBody, now: Date = new Date()): Event {
  const { products: productInputs, referral_code: referralCode, ...fields } = patch;
  const present = Object.entries(fields).filter(([, value]) => value !== undefined);
  const next = { ...previous, ...Object.fromEntries(present.filter(([, value]) => value !== null)), version: previous.version + 1, updatedAt: now.toISOString() } as Event;
  // `null` removes an optional field.
  for (const [key] of present.filter(([, value]) => value === null)) delete (next as unknown as Record<string, unknown>)[key];
  if (referralCode === null) delete next.referral_code;
  else if (referralCode !== undefined) next.referral_code = referralCode;
  if (productInputs !== undefined) next.products = resolveProducts(productInputs, previous.products, next.currency);
  assertChronology(next);
  const event = { ...next, ...priceRange(next.products) };
  assertEventSize(event);
  return event;
}

/** Creates an event with its products. */
export async function createEvent(workspaceId: string, body: CreateEventBody): Promise<Event> {
  const event = buildEvent(body);
  await insertEvent(workspaceId, event);
  return event;
}

/**
 * Updates an event. With `expectedVersion` (If-Match) a stale version is a ConflictError; without
 * it the update is re-applied on the fresh event until it lands, so no concurrent change is lost.
 */
export async function updateEvent(workspaceId: string, eventId: string, patch: UpdateEventBody, expectedVersion?: number): Promise<Event> {
  for (let attempt = 1; ; attempt += 1) {
    const previous = await getEvent(workspaceId, eventId);
    if (expectedVersion !== undefined && previous.version !== expectedVersion) {
      throw new ConflictError(`The event is at version ${previous.version}, not ${expectedVersion}. Re-read it and retry.`);
    }
    const next = applyEventUpdate(previous, patch);
    try {
      await replaceEvent(workspaceId, previous, next);
      return next;
    } catch (error) {
      if (!(error instanceof ConflictError) || expectedVersion !== undefined || attempt >= UPDATE_ATTEMPTS) throw error;
    }
  }
}
