import * as z from 'zod';
import { entityAttribute, itemKey, withoutKeys, type ItemKey } from '../db/table-design.js';
import { dateTimeSchema, idSchema, versionSchema, moneySchema } from '../model/primitives.js';
import { echoedFields, type RoundTrip } from '../model/round-trip.js';
import { lazy } from '../model/lazy-schema.js';

/**
 * The checkout model: the schemas of the stored and returned checkout and of the inputs that change
 * it, their types, the keys of the checkout's own items and the item <-> record mappers. The list
 * projections have their own model (`checkout-list-model.ts`). Routes build their request and
 * response schemas from these; nothing here knows about HTTP.
 */

/** Size limits that keep one checkout well inside one DynamoDB item. */
export const CHECKOUT_LIMITS = { products: 100, dependents: 20, customFees: 20, taxIds: 10 } as const;

/**
 * The most list projections one request of `GET /v1/checkouts` examines when `search` or a condition
 * the keys cannot serve must be evaluated (the documented bound; here so the route can state it
 * without loading the list planner).
 */
export const LIST_SCAN_BUDGET = 1_000;

export const CHECKOUT_SORT_FIELDS = ['name', 'description', 'createdAt', 'updatedAt', 'status', 'visibility', 'productsCount', '_id', 'event', 'form'] as const;
export type CheckoutSortField = (typeof CHECKOUT_SORT_FIELDS)[number];

export const CHECKOUT_STATUSES = ['open', 'closed'] as const;
export const CHECKOUT_VISIBILITIES = ['private', 'public'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];
export type CheckoutVisibility = (typeof CHECKOUT_VISIBILITIES)[number];

const checkoutStatus = lazy(() => z.enum(CHECKOUT_STATUSES));
const checkoutVisibility = lazy(() => z.enum(CHECKOUT_VISIBILITIES));
const paymentMethod = lazy(() => z.enum(['card', 'pay_by_invoice', 'pay_later']));
const count = lazy(() => z.number().int().min(0).max(100_000));
const nonNegativeMoney = lazy(() => moneySchema.min(0));

const customFeeSchema = lazy(() => z.strictObject({
  id: z.string().min(1).max(100).optional().meta({ description: 'Minted (24-hex) when omitted; unique within its dependent.' }),
  name: z.string().trim().min(1).max(100),
  rate: z.number().min(0).meta({ description: 'Percent (0..100) of the price, or with `isFixedValue` an amount in cents (integer).' }),
  isCustomFee: z.boolean().optional(),
  isFixedValue: z.boolean().optional(),
  includeInServiceFee: z.boolean().optional(),
  defaultServiceFee: z.boolean().optional(),
  isOrgDefault: z.boolean().optional(),
}));

const dependentSchema = lazy(() => z.strictObject({
  productId: idSchema.meta({ description: 'A product of one of the workspace\'s events.' }),
  minPerOrder: count.optional(),
  maxPerOrder: count.optional(),
  priceMode: z.enum(['free', 'paid', 'pwyc']).optional().meta({ description: '`paid` needs `price` > 0. A field with no effect in the mode (`price` when `free`, `pwycMin` unless `pwyc`) is accepted and kept.' }),
  price: nonNegativeMoney.optional().meta({ description: 'Cents. With `priceMode` `free` it has no effect: accepted and kept, never refused.' }),
  pwycMin: nonNegativeMoney.optional().meta({ description: 'Pay-what-you-can minimum, cents. Takes effect only with `priceMode` `pwyc`; with another mode it is accepted and kept (stored and returned as sent), never refused.' }),
  includeOrgTaxes: z.boolean().optional(),
  customFees: z.array(customFeeSchema).max(CHECKOUT_LIMITS.customFees).default([]),
}));

const checkoutProductInputSchema = lazy(() => z.strictObject({
  productId: idSchema.meta({ description: 'A product of one of the workspace\'s events (of `eventId` when set).' }),
  quantity: z.number().int().min(1).max(100_000).optional(),
  visibility: z.enum(['visible', 'conditional', 'hidden']).default('visible'),
  dependents: z.array(dependentSchema).max(CHECKOUT_LIMITS.dependents).default([]),
}));

const payByInvoiceSchema = lazy(() => z.strictObject({
  enabled: z.boolean(),
  memo: z.string().max(500).optional(),
  taxIds: z.array(z.strictObject({ type: z.string().min(1).max(50), value: z.string().min(1).max(100) })).max(CHECKOUT_LIMITS.taxIds).optional(),
  dueInDays: z.number().int().min(0).max(365).optional(),
}));

/** Optional host-writable fields; on PATCH each may also be `null` to remove it. */
const optionalFields = lazy(() => ({
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
}));

type OptionalFields = typeof optionalFields;
const optional = lazy(() => Object.fromEntries(Object.entries(optionalFields).map(([key, schema]) => [key, schema.optional()])) as {
  [K in keyof OptionalFields]: z.ZodOptional<OptionalFields[K]>;
});
const clearable = lazy(() => Object.fromEntries(Object.entries(optionalFields).map(([key, schema]) => [key, schema.nullable().optional()])) as {
  [K in keyof OptionalFields]: z.ZodOptional<z.ZodNullable<OptionalFields[K]>>;
});

const nameSchema = lazy(() => z.string().trim().min(1).max(200));

const checkoutProductSchema = lazy(() => z.object({
  productId: z.string(),
  quantity: z.number().int().optional(),
  visibility: z.enum(['visible', 'conditional', 'hidden']),
  dependents: z.array(dependentSchema.extend({ customFees: z.array(customFeeSchema.required({ id: true })) })),
}));

export const checkoutSchema = lazy(() => z
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
    version: versionSchema,
  })
  .meta({ id: 'Checkout', description: 'A standalone checkout.' }));

export type CheckoutView = z.output<typeof checkoutSchema>;

/** What a checkout's GET returns that its writes do not set (API.md "Round trips and references"). */
export const CHECKOUT_ROUND_TRIP: RoundTrip = {
  resource: 'checkout',
  readOnly: { id: undefined, ownerId: undefined, createdAt: undefined },
  derived: ['updatedAt', 'productsCount', 'isEventSet'],
  linked: ['eventName', 'eventImage', 'formName'],
};

export const createCheckoutBodySchema = lazy(() => z
  .strictObject({
    ...echoedFields(checkoutSchema.shape, CHECKOUT_ROUND_TRIP, 'create'),
    name: nameSchema,
    status: checkoutStatus.default('open'),
    visibility: checkoutVisibility.default('private'),
    products: z.array(checkoutProductInputSchema).max(CHECKOUT_LIMITS.products).default([]),
    ...optional,
  })
  .meta({ id: 'CreateCheckout' }));

export const updateCheckoutBodySchema = lazy(() => z
  .strictObject({
    ...echoedFields(checkoutSchema.shape, CHECKOUT_ROUND_TRIP, 'update'),
    name: nameSchema.optional(),
    status: checkoutStatus.optional(),
    visibility: checkoutVisibility.optional(),
    products: z.array(checkoutProductInputSchema).max(CHECKOUT_LIMITS.products).optional().meta({ description: 'Replaces the whole product list.' }),
    ...clearable,
  })
  .meta({ id: 'UpdateCheckout', description: 'Partial update: absent fields are kept, `null` removes an optional field.' }));

export type CreateCheckoutBody = z.output<typeof createCheckoutBodySchema>;
export type UpdateCheckoutBody = z.output<typeof updateCheckoutBodySchema>;

/** Fields computed when a checkout is read; never stored (they would go stale when an event or form is renamed). */
export const COMPUTED_FIELDS = ['productsCount', 'eventName', 'eventImage', 'formName', 'isEventSet'] as const;
export type ComputedField = typeof COMPUTED_FIELDS[number];

/** A checkout as stored: the API shape minus the computed fields. */
export type CheckoutRecord = Omit<CheckoutView, ComputedField>;

/** The host-writable part of a checkout, after defaults, as validated before it is stored. */
export type CheckoutDraft = Omit<CheckoutRecord, 'id' | 'ownerId' | 'createdAt' | 'updatedAt' | 'version'>;

/**
 * The display names of the checkout's event and order form that its list projections were keyed with
 * (sorting by `event`/`form` orders by them). Stored on the checkout, so that the next write knows
 * which projection keys to remove even after a rename.
 */
export interface ListNames {
  event?: string;
  form?: string;
}

/** A stored checkout with the names its list projections were built from. */
export interface StoredCheckout {
  record: CheckoutRecord;
  listNames: ListNames;
  /** `record.version`, at the top for the optimistic-concurrency loop. */
  version: number;
}

export const CHECKOUT_ENTITIES = { live: 'Checkout', deleted: 'DeletedCheckout' } as const;

/** The attribute that holds the list names on the stored checkout (never returned). */
export const LIST_NAMES_ATTRIBUTE = 'listNames';

/**
 * Key builders of the checkout's own items, the only place they are spelled.
 * - live checkout: `WS#<ws>#CHECKOUTS` / `<id>` (time-ordered ids).
 * - soft-deleted: `WS#<ws>#CHECKOUTS#DELETED` / `<id>`, moved there in the delete's transaction, so
 *   reads and lists of live checkouts never see them and never pay for them.
 */
export const checkoutKeys = {
  partition: (workspaceId: string) => `WS#${workspaceId}#CHECKOUTS`,
  checkout: (workspaceId: string, checkoutId: string): ItemKey => itemKey(checkoutKeys.partition(workspaceId), checkoutId),
  deleted: (workspaceId: string, checkoutId: string): ItemKey => itemKey(`WS#${workspaceId}#CHECKOUTS#DELETED`, checkoutId),
};

/** Number of product entries (dependents are add-ons of a product, not counted separately). */
export function productsCountOf(record: Pick<CheckoutRecord, 'products'>): number {
  return record.products.length;
}

export function toCheckoutItem(workspaceId: string, record: CheckoutRecord, listNames: ListNames): Record<string, unknown> {
  return { ...record, [LIST_NAMES_ATTRIBUTE]: listNames, ...checkoutKeys.checkout(workspaceId, record.id), ...entityAttribute(CHECKOUT_ENTITIES.live) };
}

export function toDeletedCheckoutItem(workspaceId: string, record: CheckoutRecord, deletedAt: string): Record<string, unknown> {
  return { ...record, deletedAt, ...checkoutKeys.deleted(workspaceId, record.id), ...entityAttribute(CHECKOUT_ENTITIES.deleted) };
}

/** A stored live checkout: the record (no keys, no internal attributes) and its list names. */
export function fromCheckoutItem(item: Record<string, unknown>): StoredCheckout {
  const { [LIST_NAMES_ATTRIBUTE]: listNames, ...rest } = withoutKeys(item);
  const record = rest as CheckoutRecord;
  return { record, listNames: (listNames ?? {}) as ListNames, version: record.version };
}
