import * as z from 'zod';
import { defineRoute } from '../route.js';
import { dataResponse, dateTimeSchema, idParams, idSchema, listQuery, listResponse, moneySchema } from '../schemas.js';
import { richTextRequestSchema, richTextResponseSchema } from '../../rich-text/rich-text-schema.js';

/** Limits that keep an event and all its derived items inside one DynamoDB transaction and item. */
export const EVENT_LIMITS = { products: 25, metaDataKeys: 50, listItems: 50, maxBytes: 300_000 } as const;

const currencySchema = z.enum(['USD', 'CAD']);
const shortText = z.string().max(200);
const longText = z.string().max(20_000);
/** Image references (URLs or asset ids): the spec types them as plain strings. */
const imageList = z.array(z.string().min(1).max(2_048)).max(EVENT_LIMITS.listItems);
const tagList = z.array(z.string().min(1).max(100)).max(EVENT_LIMITS.listItems);
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
const looseObject = z.preprocess(refuseProtoKey, z.record(z.string(), z.unknown()));

export const referralCodeSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only');

const metaDataSchema = z
  .preprocess(refuseProtoKey, z.record(z.string().min(1).max(100), z.string().max(500)))
  .refine((value) => Object.keys(value).length <= EVENT_LIMITS.metaDataKeys, `at most ${EVENT_LIMITS.metaDataKeys} keys`)
  .meta({ description: 'String key/value pairs attached through onboarding; the partner listing filters on them.' });

const productInputSchema = z.strictObject({
  name: z.string().min(1).max(200),
  price: moneySchema.min(0).meta({ description: 'Price in cents.' }),
  required: z.boolean().default(false).meta({ description: 'Required tickets define minPrice/maxPrice.' }),
  currency: currencySchema.optional().meta({ description: "Defaults to the event's currency, else USD." }),
});

const productUpdateSchema = productInputSchema.extend({
  id: idSchema.optional().meta({ description: 'Keep this existing product id; omit to mint a new product.' }),
});

export const productSchema = z
  .object({ id: idSchema, name: z.string(), price: moneySchema, required: z.boolean(), currency: currencySchema })
  .meta({ id: 'Product' });

/** Host-writable fields of the Partner event object (all optional; create adds what is required). */
const writableFields = {
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
};

type WritableFields = typeof writableFields;

/** The same fields for a PATCH, where `null` removes an optional field (as on forms, contacts and checkouts). */
const clearableFields = Object.fromEntries(
  Object.entries(writableFields).map(([key, schema]) => [key, schema.unwrap().nullable().optional()]),
) as { [K in keyof WritableFields]: z.ZodOptional<z.ZodNullable<ReturnType<WritableFields[K]['unwrap']>>> };

const eventType = z.enum(['event', 'booking', 'recurring', 'multiple']);
const eventStatus = z.enum(['draft', 'published']);
const eventVisibility = z.enum(['public', 'private']);

export const createEventBodySchema = z
  .strictObject({
    name: z.string().min(1).max(200),
    start: dateTimeSchema,
    end: dateTimeSchema,
    type: eventType.default('event'),
    status: eventStatus.default('draft'),
    visibility: eventVisibility.default('private'),
    referral_code: referralCodeSchema.optional().meta({ description: 'Links the event to the partner with this code.' }),
    descriptionBlocks: richTextRequestSchema.optional(),
    products: z.array(productInputSchema).max(EVENT_LIMITS.products).default([]),
    ...writableFields,
  })
  .refine((body) => Date.parse(body.end) >= Date.parse(body.start), { path: ['end'], message: 'must not be before start' })
  .meta({ id: 'CreateEvent' });

export const updateEventBodySchema = z
  .strictObject({
    name: z.string().min(1).max(200).optional(),
    start: dateTimeSchema.optional(),
    end: dateTimeSchema.optional(),
    type: eventType.optional(),
    status: eventStatus.optional(),
    visibility: eventVisibility.optional(),
    referral_code: referralCodeSchema.nullable().optional().meta({ description: '`null` unlinks the event from its partner.' }),
    descriptionBlocks: richTextRequestSchema.nullable().optional().meta({ description: '`null` removes the description.' }),
    products: z.array(productUpdateSchema).max(EVENT_LIMITS.products).optional()
      .meta({ description: 'Replaces the product list; entries with an existing `id` keep it.' }),
    ...clearableFields,
  })
  .meta({ id: 'UpdateEvent', description: 'Only the fields sent change; `null` removes an optional field.' });

export const eventSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    start: dateTimeSchema,
    end: dateTimeSchema,
    type: eventType,
    status: eventStatus,
    visibility: eventVisibility,
    referral_code: z.string().optional(),
    descriptionBlocks: richTextResponseSchema.optional(),
    products: z.array(productSchema),
    minPrice: moneySchema.meta({ description: 'Lowest price among required products, in cents, fees excluded; 0 when none is required.' }),
    maxPrice: moneySchema.meta({ description: 'Highest price among required products, in cents, fees excluded; 0 when none is required.' }),
    ...writableFields,
    version: z.number().int().min(1),
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  })
  .meta({ id: 'Event' });

export const EVENT_SORT_FIELDS = ['start', 'end', 'createdAt', 'name'] as const;

const ifMatchDescription = 'Update: send `If-Match: <version>` to fail with 409 when the event changed since you read it.';

export const eventsRoutes = {
  createEvent: defineRoute({
    group: 'events',
    operation: 'createEvent',
    method: 'POST',
    path: '/v1/events',
    auth: 'key',
    tags: ['Events'],
    summary: 'Create an event',
    description: 'Products get minted ids. `minPrice`/`maxPrice` are computed from required products only (0/0 when none is required).',
    body: createEventBodySchema,
    success: { status: 201, description: 'The created event.', schema: dataResponse(eventSchema) },
    errors: [400, 401, 403, 409, 422],
  }),
  listEvents: defineRoute({
    group: 'events',
    operation: 'listEvents',
    method: 'GET',
    path: '/v1/events',
    auth: 'key',
    tags: ['Events'],
    summary: 'List events',
    description: 'Generic list: `page`, `limit` (1..100), `sort` (start|end|createdAt|name), `direction`. `total` is the number of items on this page.',
    query: listQuery(EVENT_SORT_FIELDS, 'createdAt', {
      status: eventStatus.optional().meta({ description: 'Only events with this status.' }),
      visibility: eventVisibility.optional().meta({ description: 'Only events with this visibility.' }),
    }),
    success: { status: 200, description: 'One page of events.', schema: listResponse(eventSchema) },
    errors: [400, 401, 403],
  }),
  getEvent: defineRoute({
    group: 'events',
    operation: 'getEvent',
    method: 'GET',
    path: '/v1/events/{id}',
    auth: 'key',
    tags: ['Events'],
    summary: 'Get an event',
    params: idParams('id'),
    success: { status: 200, description: 'The event.', schema: dataResponse(eventSchema) },
    errors: [401, 403, 404],
  }),
  updateEvent: defineRoute({
    ifMatch: true,
    group: 'events',
    operation: 'updateEvent',
    method: 'PATCH',
    path: '/v1/events/{id}',
    auth: 'key',
    tags: ['Events'],
    summary: 'Update an event',
    description: `Partial update. ${ifMatchDescription}`,
    params: idParams('id'),
    body: updateEventBodySchema,
    success: { status: 200, description: 'The updated event.', schema: dataResponse(eventSchema) },
    errors: [400, 401, 403, 404, 409, 422],
  }),
};

export type CreateEventBody = z.output<typeof createEventBodySchema>;
export type UpdateEventBody = z.output<typeof updateEventBodySchema>;
export type EventSortField = (typeof EVENT_SORT_FIELDS)[number];
