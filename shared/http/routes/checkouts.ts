import * as z from 'zod';
import { filtersQuerySchema } from '../../checkouts/checkout-filters.js';
import { defineRoute } from '../route.js';
import { echoedFields, type RoundTrip } from '../../model/round-trip.js';
import { dataResponse, dateTimeSchema, idParams, idSchema, intQuery, moneySchema } from '../schemas.js';

/** Size limits that keep one checkout well inside one DynamoDB item. */
export const CHECKOUT_LIMITS = { products: 100, dependents: 20, customFees: 20, taxIds: 10 } as const;

export const CHECKOUT_SORT_FIELDS = ['name', 'description', 'createdAt', 'updatedAt', 'status', 'visibility', 'productsCount', '_id', 'event', 'form'] as const;

const checkoutStatus = z.enum(['open', 'closed']);
const checkoutVisibility = z.enum(['private', 'public']);
const paymentMethod = z.enum(['card', 'pay_by_invoice', 'pay_later']);
const count = z.number().int().min(0).max(100_000);
const nonNegativeMoney = moneySchema.min(0);

const customFeeSchema = z.strictObject({
  id: z.string().min(1).max(100).optional().meta({ description: 'Minted (24-hex) when omitted.' }),
  name: z.string().trim().min(1).max(100),
  rate: z.number().min(0).meta({ description: 'Percent (0..100) of the price, or with `isFixedValue` an amount in cents (integer).' }),
  isCustomFee: z.boolean().optional(),
  isFixedValue: z.boolean().optional(),
  includeInServiceFee: z.boolean().optional(),
  defaultServiceFee: z.boolean().optional(),
  isOrgDefault: z.boolean().optional(),
});

const dependentSchema = z.strictObject({
  productId: idSchema.meta({ description: 'A product of one of the workspace\'s events.' }),
  minPerOrder: count.optional(),
  maxPerOrder: count.optional(),
  priceMode: z.enum(['free', 'paid', 'pwyc']).optional().meta({ description: '`paid` needs `price` > 0; `free` allows no price above 0; `pwycMin` only with `pwyc`.' }),
  price: nonNegativeMoney.optional().meta({ description: 'Cents.' }),
  pwycMin: nonNegativeMoney.optional().meta({ description: 'Pay-what-you-can minimum, cents.' }),
  includeOrgTaxes: z.boolean().optional(),
  customFees: z.array(customFeeSchema).max(CHECKOUT_LIMITS.customFees).default([]),
});

const checkoutProductInputSchema = z.strictObject({
  productId: idSchema.meta({ description: 'A product of one of the workspace\'s events (of `eventId` when set).' }),
  quantity: z.number().int().min(1).max(100_000).optional(),
  visibility: z.enum(['visible', 'conditional', 'hidden']).default('visible'),
  dependents: z.array(dependentSchema).max(CHECKOUT_LIMITS.dependents).default([]),
});

const payByInvoiceSchema = z.strictObject({
  enabled: z.boolean(),
  memo: z.string().max(500).optional(),
  taxIds: z.array(z.strictObject({ type: z.string().min(1).max(50), value: z.string().min(1).max(100) })).max(CHECKOUT_LIMITS.taxIds).optional(),
  dueInDays: z.number().int().min(0).max(365).optional(),
});

/** Optional host-writable fields; on PATCH each may also be `null` to remove it. */
const optionalFields = {
  description: z.string().max(5_000),
  maxTicketsPerSet: z.number().int().min(1).max(100_000),
  maxTicketsPerOrder: z.number().int().min(1).max(100_000),
  eventId: idSchema.meta({ description: 'An event of the workspace; `isEventSet` is true exactly when it is set.' }),
  timeslotId: z.string().min(1).max(100).meta({ description: 'Opaque timeslot reference (timeslots are not modelled by this API).' }),
  orderFormId: idSchema.meta({ description: 'A form of the workspace.' }),
  redirectUrl: z.url({ protocol: /^https?$/ }).max(2_048),
  payByInvoice: payByInvoiceSchema,
  paymentMethods: z.array(paymentMethod).min(1).max(3),
  payButtonLabel: z.string().trim().min(1).max(50),
  disableConfirmationEmail: z.boolean(),
  availableFrom: dateTimeSchema,
  availableTo: dateTimeSchema,
  availabilityTimezone: z.string().min(1).max(64).meta({ description: 'IANA time zone, e.g. `Europe/Paris`.' }),
};

type OptionalFields = typeof optionalFields;
const optional = Object.fromEntries(Object.entries(optionalFields).map(([key, schema]) => [key, schema.optional()])) as {
  [K in keyof OptionalFields]: z.ZodOptional<OptionalFields[K]>;
};
const clearable = Object.fromEntries(Object.entries(optionalFields).map(([key, schema]) => [key, schema.nullable().optional()])) as {
  [K in keyof OptionalFields]: z.ZodOptional<z.ZodNullable<OptionalFields[K]>>;
};

const nameSchema = z.string().trim().min(1).max(200);

const checkoutProductSchema = z.object({
  productId: z.string(),
  quantity: z.number().int().optional(),
  visibility: z.enum(['visible', 'conditional', 'hidden']),
  dependents: z.array(dependentSchema.extend({ customFees: z.array(customFeeSchema.required({ id: true })) })),
});

export const checkoutSchema = z
  .object({
    id: idSchema,
    ownerId: z.string().meta({ description: 'The owning workspace.' }),
    name: z.string(),
    status: checkoutStatus,
    visibility: checkoutVisibility,
    products: z.array(checkoutProductSchema),
    ...optional,
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
    productsCount: z.number().int().meta({ description: 'Number of entries in `products` (dependents not counted).' }),
    eventName: z.string().optional().meta({ description: 'Name of the event `eventId`, read at request time.' }),
    eventImage: z.string().optional().meta({ description: 'First image of the event `eventId`, if it has one; an image asset id is resolved to the asset\'s download URL.' }),
    formName: z.string().optional().meta({ description: 'Name of the form `orderFormId`, read at request time.' }),
    isEventSet: z.boolean().meta({ description: 'True exactly when `eventId` is set.' }),
    version: z.number().int().min(1).meta({ description: 'Optimistic-concurrency version: send `If-Match: <version>` on PATCH/DELETE.' }),
  })
  .meta({ id: 'Checkout', description: 'A standalone checkout.' });

export type CheckoutView = z.output<typeof checkoutSchema>;

/** What a checkout's GET returns that its writes do not set (API.md "Round trips and references"). */
export const CHECKOUT_ROUND_TRIP: RoundTrip = {
  resource: 'checkout',
  readOnly: { id: undefined, ownerId: undefined, createdAt: undefined },
  derived: ['updatedAt', 'productsCount', 'eventName', 'eventImage', 'formName', 'isEventSet'],
};

export const createCheckoutBodySchema = z
  .strictObject({
    ...echoedFields(checkoutSchema.shape, CHECKOUT_ROUND_TRIP, 'create'),
    name: nameSchema,
    status: checkoutStatus.default('open'),
    visibility: checkoutVisibility.default('private'),
    products: z.array(checkoutProductInputSchema).max(CHECKOUT_LIMITS.products).default([]),
    ...optional,
  })
  .meta({ id: 'CreateCheckout' });

export const updateCheckoutBodySchema = z
  .strictObject({
    ...echoedFields(checkoutSchema.shape, CHECKOUT_ROUND_TRIP, 'update'),
    name: nameSchema.optional(),
    status: checkoutStatus.optional(),
    visibility: checkoutVisibility.optional(),
    products: z.array(checkoutProductInputSchema).max(CHECKOUT_LIMITS.products).optional().meta({ description: 'Replaces the whole product list.' }),
    ...clearable,
  })
  .meta({ id: 'UpdateCheckout', description: 'Partial update: absent fields are kept, `null` removes an optional field.' });

export type CreateCheckoutBody = z.output<typeof createCheckoutBodySchema>;
export type UpdateCheckoutBody = z.output<typeof updateCheckoutBodySchema>;

export const listCheckoutsQuerySchema = z.strictObject({
  pageNumber: intQuery({ min: 0, max: 9_007_199_254_740_991, default: 0, description: 'Zero-based page index.' }),
  pageSize: intQuery({ min: 1, max: 200, default: 50, description: 'Items per page, 1..200.' }),
  search: z.string().max(200).optional().meta({ description: 'Case-insensitive substring of name or description.' }),
  status: checkoutStatus.optional(),
  eventId: z.string().max(100).optional(),
  timeslotId: z.string().max(100).optional(),
  sortField: z.enum(CHECKOUT_SORT_FIELDS).optional().meta({ description: 'Default `createdAt`. `event` and `form` sort by the display name of the event or form; `_id` by id (ids order by creation second only; within a second at random). Checkouts without the value sort last.' }),
  sortDirection: z.enum(['asc', 'desc']).optional().meta({ description: 'Default `asc` when `sortField` is given, else `desc` (newest first).' }),
  filters: filtersQuerySchema.optional(),
});

export type ListCheckoutsQuery = z.output<typeof listCheckoutsQuerySchema>;

const ifMatchNote = 'Send `If-Match: <version>` to fail with 409 `conflict` if the checkout changed since you read it.';

export const checkoutsRoutes = {
  createCheckout: defineRoute({
    group: 'checkouts',
    operation: 'createCheckout',
    method: 'POST',
    path: '/v1/checkouts',
    auth: 'key',
    tags: ['Checkouts'],
    summary: 'Create a checkout',
    description: 'Every `productId` (also of dependents) must be a product of the workspace\'s events, of `eventId` when it is set; `eventId` and `orderFormId` must be the workspace\'s. Otherwise 422 with the offending path.',
    body: createCheckoutBodySchema,
    success: { status: 201, description: 'The created checkout.', schema: dataResponse(checkoutSchema) },
    errors: [400, 401, 403, 409, 415, 422],
  }),
  listCheckouts: defineRoute({
    group: 'checkouts',
    operation: 'listCheckouts',
    method: 'GET',
    path: '/v1/checkouts',
    auth: 'key',
    tags: ['Checkouts'],
    summary: 'List checkouts',
    description: 'Filters, search and sort apply before paging. Any malformed or out-of-range parameter (or an unknown one) is 400 `invalid_query`. Cost: one Query over the workspace\'s live checkouts, plus one BatchGet per 100 distinct events, forms and event image assets on the page (events or forms of all matches when sorting by `event`/`form`): never one read per checkout.',
    query: listCheckoutsQuerySchema,
    success: {
      status: 200,
      description: 'One page of checkouts.',
      schema: z.object({ data: z.array(checkoutSchema), hasMore: z.boolean(), pageNumber: z.number().int(), pageSize: z.number().int() }).meta({ id: 'CheckoutList' }),
    },
    errors: [400, 401, 403],
  }),
  getCheckout: defineRoute({
    group: 'checkouts',
    operation: 'getCheckout',
    method: 'GET',
    path: '/v1/checkouts/{id}',
    auth: 'key',
    tags: ['Checkouts'],
    summary: 'Get a checkout',
    description: 'Wrapped as `{checkout}` (spec). 404 when absent, deleted or another workspace\'s.',
    params: idParams('id'),
    success: { status: 200, description: 'The checkout.', schema: z.object({ checkout: checkoutSchema }) },
    errors: [401, 403, 404],
  }),
  updateCheckout: defineRoute({
    ifMatch: true,
    group: 'checkouts',
    operation: 'updateCheckout',
    method: 'PATCH',
    path: '/v1/checkouts/{id}',
    auth: 'key',
    tags: ['Checkouts'],
    summary: 'Update a checkout',
    description: `Partial update, same reference rules as create. ${ifMatchNote}`,
    params: idParams('id'),
    body: updateCheckoutBodySchema,
    success: { status: 200, description: 'The updated checkout.', schema: dataResponse(checkoutSchema) },
    errors: [400, 401, 403, 404, 409, 415, 422],
  }),
  deleteCheckout: defineRoute({
    ifMatch: true,
    group: 'checkouts',
    operation: 'deleteCheckout',
    method: 'DELETE',
    path: '/v1/checkouts/{id}',
    auth: 'key',
    tags: ['Checkouts'],
    summary: 'Delete a checkout',
    description: `Soft delete: the record is kept aside, but GET answers 404 and lists omit it. ${ifMatchNote}`,
    params: idParams('id'),
    success: { status: 204, description: 'Deleted.' },
    errors: [401, 403, 404, 409],
  }),
};
