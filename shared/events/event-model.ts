import * as z from 'zod';
import { entityAttribute, withoutKeys } from '../db/table-design.js';
import { eventKeys } from './event-key-model.js';
import { CURRENCIES, dateTimeSchema, idSchema, versionSchema, moneySchema } from '../model/primitives.js';
import { richTextRequestSchema, richTextResponseSchema } from '../rich-text/rich-text-schema.js';
import { echoedFields, type RoundTrip } from '../model/round-trip.js';
import { lazy, once } from '../model/lazy-schema.js';

/**
 * The event model: the schemas of the stored and returned event (with its products) and of the
 * inputs that change it, their types, the keys of the main items and the item <-> object mappers.
 * Derived items (sort copies, filter entries, partner listing items) live in `event-listing-model.ts`.
 * Routes build their request and response schemas from these; nothing here knows about HTTP.
 */

/**
 * Limits that keep an event and all its derived items inside one DynamoDB item and one transaction.
 * Each metaData pair of a partner-listed event is an index item written with the event (README
 * "Access patterns: partner listing"), so the pairs are bounded: 20 keys of up to 100 characters,
 * values up to 500 (a create is then at most 77 items, counts included; a transaction takes 100).
 */
export const EVENT_LIMITS = { products: 25, metaDataKeys: 20, metaDataKeyLength: 100, metaDataValueLength: 500, listItems: 50, maxBytes: 300_000 } as const;

export const EVENT_TYPES = ['event', 'booking', 'recurring', 'multiple'] as const;
export const EVENT_STATUSES = ['draft', 'published'] as const;
export const EVENT_VISIBILITIES = ['public', 'private'] as const;
export const EVENT_SORT_FIELDS = ['start', 'end', 'createdAt', 'name'] as const;

const currencySchema = lazy(() => z.enum(CURRENCIES));
const shortText = lazy(() => z.string().max(200));
const longText = lazy(() => z.string().max(20_000));
/** Image references (URLs or asset ids): the spec types them as plain strings; the service checks added entries. */
const imageList = lazy(() => z.array(z.string().min(1).max(2_048).meta({ example: 'https://cdn.example.com/images/gala.jpg' })).max(EVENT_LIMITS.listItems)
  .meta({ description: 'Absolute https/http URLs or image asset ids.' }));
const tagList = lazy(() => z.array(z.string().min(1).max(100)).max(EVENT_LIMITS.listItems));
/**
 * zod's record drops an own `__proto__` key without a word (JSON.parse keeps it as a plain key), so a
 * client would get 201 with part of its input gone: refuse it instead.
 */
const refuseProtoKey = (input: unknown, ctx: z.core.$RefinementCtx): unknown => {
  if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__')) {
    ctx.addIssue({ code: 'custom', message: 'the key "__proto__" is not allowed', path: ['__proto__'], input });
  }
  return input;
};
const looseObject = lazy(() => z.preprocess(refuseProtoKey, z.record(z.string(), z.unknown())));

export const referralCodeSchema = lazy(() => z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only'));

const metaDataSchema = lazy(() => z
  .preprocess(refuseProtoKey, z.record(z.string().min(1).max(EVENT_LIMITS.metaDataKeyLength), z.string().max(EVENT_LIMITS.metaDataValueLength)))
  .refine((value) => Object.keys(value).length <= EVENT_LIMITS.metaDataKeys, `at most ${EVENT_LIMITS.metaDataKeys} keys`)
  .meta({ description: 'String key/value pairs attached through onboarding; the partner listing filters on them.' }));

const productInputSchema = lazy(() => z.strictObject({
  name: z.string().min(1).max(200),
  price: moneySchema.min(0).meta({ description: 'Price in cents.' }),
  required: z.boolean().default(false).meta({ description: 'Required tickets define minPrice/maxPrice.' }),
  currency: currencySchema.optional().meta({ description: "Defaults to the event's currency, else USD." }),
}));

const productUpdateSchema = lazy(() => productInputSchema.extend({
  id: idSchema.optional().meta({ description: 'Keep this existing product id; omit to mint a new product.' }),
}));

export const productSchema = lazy(() => z
  .object({ id: idSchema, name: z.string(), price: moneySchema, required: z.boolean(), currency: currencySchema })
  .meta({ id: 'Product' }));

/** Host-writable fields of the Partner event object (all optional; create adds what is required). */
const writableFields = lazy(() => ({
  multiDayStartTimes: z.array(dateTimeSchema).max(EVENT_LIMITS.listItems).optional(),
  multiDayEndTimes: z.array(dateTimeSchema).max(EVENT_LIMITS.listItems).optional(),
  location: looseObject.optional(),
  locationPlaceholder: shortText.optional(),
  virtualEventLink: z.url({ protocol: /^https?$/ }).max(2_048).optional(),
  description: longText.optional(),
  image: imageList.optional(),
  images: imageList.optional(),
  tags: tagList.optional(),
  currency: currencySchema.optional(),
  redirectUrl: z.url({ protocol: /^https?$/ }).max(2_048).optional(),
  customTerms: looseObject.optional(),
  refundPolicy: longText.optional(),
  customTags: tagList.optional(),
  contentBlocks: z.array(looseObject).max(100).optional(),
  language: z.string().min(2).max(10).optional(),
  isCancelled: z.boolean().optional(),
  metaData: metaDataSchema.optional(),
}));

type WritableFields = typeof writableFields;

/** The same fields for a PATCH, where `null` removes an optional field (as on forms, contacts and checkouts). */
const clearableFields = lazy(() => Object.fromEntries(
  Object.entries(writableFields).map(([key, schema]) => [key, schema.unwrap().nullable().optional()]),
) as { [K in keyof WritableFields]: z.ZodOptional<z.ZodNullable<ReturnType<WritableFields[K]['unwrap']>>> });

const eventType = lazy(() => z.enum(EVENT_TYPES));
export const eventStatusSchema = lazy(() => z.enum(EVENT_STATUSES));
export const eventVisibilitySchema = lazy(() => z.enum(EVENT_VISIBILITIES));

export const eventSchema = lazy(() => z
  .object({
    id: idSchema,
    name: z.string(),
    start: dateTimeSchema,
    end: dateTimeSchema,
    type: eventType,
    status: eventStatusSchema,
    visibility: eventVisibilitySchema,
    referral_code: z.string().optional(),
    descriptionBlocks: richTextResponseSchema.optional(),
    products: z.array(productSchema),
    minPrice: moneySchema.meta({ description: 'Lowest price among required products, in cents, fees excluded; 0 when none is required.' }),
    maxPrice: moneySchema.meta({ description: 'Highest price among required products, in cents, fees excluded; 0 when none is required.' }),
    ...writableFields,
    version: versionSchema,
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  })
  .meta({ id: 'Event' }));

/** What an event's GET returns that its writes do not set (API.md "Round trips and references"). */
export const EVENT_ROUND_TRIP: RoundTrip = { resource: 'event', readOnly: { id: undefined, createdAt: undefined }, derived: ['minPrice', 'maxPrice', 'updatedAt'] };

/** A product of a create body: an `id` (a copy's) is ignored, the product gets a new one. */
const productCopySchema = lazy(() => productInputSchema.extend({
  id: idSchema.optional().meta({ description: 'Ignored on create (a copy\'s products get new ids).' }),
}));

export const createEventBodySchema = lazy(() => z
  .strictObject({
    ...echoedFields(eventSchema.shape, EVENT_ROUND_TRIP, 'create'),
    name: z.string().min(1).max(200),
    start: dateTimeSchema,
    end: dateTimeSchema,
    type: eventType.default('event'),
    status: eventStatusSchema.default('draft'),
    visibility: eventVisibilitySchema.default('private'),
    referral_code: referralCodeSchema.optional().meta({ description: 'Links the event to the partner with this code.' }),
    descriptionBlocks: richTextRequestSchema.optional(),
    products: z.array(productCopySchema).max(EVENT_LIMITS.products).default([]),
    ...writableFields,
  })
  .refine((body) => Date.parse(body.end) >= Date.parse(body.start), { path: ['end'], message: 'must not be before start' })
  .meta({ id: 'CreateEvent' }));

export const updateEventBodySchema = lazy(() => z
  .strictObject({
    ...echoedFields(eventSchema.shape, EVENT_ROUND_TRIP, 'update'),
    name: z.string().min(1).max(200).optional(),
    start: dateTimeSchema.optional(),
    end: dateTimeSchema.optional(),
    type: eventType.optional(),
    status: eventStatusSchema.optional(),
    visibility: eventVisibilitySchema.optional(),
    referral_code: referralCodeSchema.nullable().optional().meta({ description: '`null` unlinks the event from its partner.' }),
    descriptionBlocks: richTextRequestSchema.nullable().optional().meta({ description: '`null` removes the description.' }),
    products: z.array(productUpdateSchema).max(EVENT_LIMITS.products).optional()
      .meta({ description: 'Replaces the product list; entries with an existing `id` keep it.' }),
    ...clearableFields,
  })
  .meta({ id: 'UpdateEvent', description: 'Only the fields sent change; `null` removes an optional field.' }));


/** An event as the API returns it (and as stored, minus keys and internal attributes). */
export type Event = z.output<typeof eventSchema>;
export type Product = z.output<typeof productSchema>;
export type CreateEventInput = z.output<typeof createEventBodySchema>;
export type UpdateEventInput = z.output<typeof updateEventBodySchema>;
export type EventStatus = (typeof EVENT_STATUSES)[number];
export type EventVisibility = (typeof EVENT_VISIBILITIES)[number];
export type EventSortField = (typeof EVENT_SORT_FIELDS)[number];

/** A product item: one per product, so checkouts resolve product ids with one BatchGet. */
export interface ProductRecord {
  productId: string;
  eventId: string;
  name: string;
  price: number;
  currency: 'USD' | 'CAD';
  required: boolean;
}

export const EVENT_ENTITY = 'Event';
export const PRODUCT_ENTITY = 'Product';

/** Attributes of stored event items that never leave the repository. */
export const EVENT_INTERNAL_ATTRIBUTES = ['workspaceId', 'endKey', 'copyOf'] as const;

// Keys of the main items live in a module without schemas: reference checks in other domains use them.
export { eventKeys } from './event-key-model.js';

/** Normalises a timestamp for key order: `toISOString()` always has milliseconds, so strings sort as times. */
export function sortableTime(value: string): string {
  return new Date(value).toISOString();
}

/** The event's own attributes as every full copy stores them (main item and sorted copies). */
export function eventAttributes(workspaceId: string, event: Event): Record<string, unknown> {
  return { ...event, workspaceId, endKey: sortableTime(event.end) };
}

/** The main item; `indexKeys` places it in the partner listing's createdAt order when it is listed. */
export function toEventItem(workspaceId: string, event: Event, indexKeys: Record<string, string> = {}): Record<string, unknown> {
  return { ...eventAttributes(workspaceId, event), ...eventKeys.event(workspaceId, event.id), ...indexKeys, ...entityAttribute(EVENT_ENTITY) };
}

/** Built on first use, with the schema (see lazy-schema.ts). */
const eventFieldOrder = once(() => Object.keys(eventSchema.shape));
const PRODUCT_FIELD_ORDER = ['id', 'name', 'price', 'required', 'currency'];
const NODE_FIELD_ORDER = ['type', 'text', 'attrs', 'content', 'marks'];

function pick(value: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((field) => value[field] !== undefined).map((field) => [field, value[field]]));
}

/** Rich-text nodes with `type` first; only the node keys of the schema exist, so none is lost. */
function orderNodes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(orderNodes);
  if (typeof value !== 'object' || value === null) return value;
  const node = value as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of [...NODE_FIELD_ORDER, ...Object.keys(node).filter((key) => !NODE_FIELD_ORDER.includes(key))]) {
    if (node[key] !== undefined) ordered[key] = key === 'content' || key === 'marks' ? orderNodes(node[key]) : node[key];
  }
  return ordered;
}

/** The event held by any full copy (main item, sorted copy, partner listing copy), fields in documented order. */
export function fromEventItem(item: Record<string, unknown>): Event {
  const stored = withoutKeys(item, EVENT_INTERNAL_ATTRIBUTES);
  // DynamoDB maps come back in no particular order: answer fields in the documented order.
  const event: Record<string, unknown> = {};
  for (const field of eventFieldOrder()) if (stored[field] !== undefined) event[field] = stored[field];
  if (Array.isArray(event.products)) event.products = (event.products as Record<string, unknown>[]).map((product) => pick(product, PRODUCT_FIELD_ORDER));
  if (Array.isArray(event.descriptionBlocks)) event.descriptionBlocks = orderNodes(event.descriptionBlocks);
  return event as Event;
}

export function toProductItem(workspaceId: string, eventId: string, product: Product): Record<string, unknown> {
  const record: ProductRecord = {
    productId: product.id, eventId, name: product.name, price: product.price, currency: product.currency, required: product.required,
  };
  return { ...record, ...eventKeys.product(workspaceId, product.id), ...entityAttribute(PRODUCT_ENTITY) };
}

export function fromProductItem(item: Record<string, unknown>): ProductRecord {
  const { productId, eventId, name, price, currency, required } = item as unknown as ProductRecord;
  return { productId, eventId, name, price, currency, required };
}
