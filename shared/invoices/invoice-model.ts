import * as z from 'zod';
import { creationOrderKey, entityAttribute, itemKey, withoutKeys, type ItemKey } from '../db/table-design.js';
import { CURRENCIES, dateTimeSchema, idSchema, versionSchema, type Currency, type SortDirection } from '../model/primitives.js';
import { echoedFields, type RoundTrip } from '../model/round-trip.js';
import { computeTotals } from './invoice-totals.js';
import { lazy } from '../model/lazy-schema.js';
import { ValidationError } from '../errors.js';

/**
 * The invoice model: the schemas of the stored and returned invoice and of the inputs that change it,
 * their types, the keys of every invoice item and the item <-> object mappers. Routes build their
 * request and response schemas from these; nothing here knows about HTTP.
 */

export { CURRENCIES, type Currency };

export const INVOICE_STATUSES = ['draft', 'open', 'payment_failed', 'paid', 'void'] as const;
export const PRODUCT_TYPES = ['product', 'add-on', 'bundle', 'donation', 'event-ticket'] as const;
export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

const MAX_SAFE = 9_007_199_254_740_991;
/** Amounts in requests: integer minor units, never negative. */
const amountSchema = lazy(() => z.number().int('must be an integer number of minor units').min(0).max(MAX_SAFE));
/** Amounts that move money: strictly positive integers. */
const positiveAmountSchema = lazy(() => z.number().int('must be an integer number of minor units').min(1).max(MAX_SAFE));
const text = (max = 1000) => z.string().max(max);

function isIanaTimezone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value.length > 0;
  } catch {
    return false;
  }
}

const timezoneSchema = lazy(() => z.string().refine(isIanaTimezone, 'must be an IANA timezone name, e.g. America/New_York').meta({ example: 'America/New_York' }));

export const seatingInformationSchema = lazy(() => z
  .strictObject({
    sectionId: text(200).optional(),
    rowId: text(200).optional(),
    seatId: text(200).optional(),
    seatReferenceId: text(200).optional(),
    sectionReferenceId: text(200).optional(),
    priceLevelId: text(200).optional(),
  })
  .meta({ id: 'SeatingInformation', description: 'Display labels and references of an assigned seat.' }));

/** A line's or component's event snapshot ends no earlier than it starts, as an event must. */
function eventEndNotBeforeStart(snapshot: { eventStart?: string | undefined; eventEnd?: string | undefined }, ctx: z.RefinementCtx): void {
  if (snapshot.eventStart !== undefined && snapshot.eventEnd !== undefined && Date.parse(snapshot.eventEnd) < Date.parse(snapshot.eventStart)) {
    ctx.addIssue({ code: 'custom', path: ['eventEnd'], message: 'must not be before eventStart' });
  }
}

export const bundleComponentSchema = lazy(() => z
  .strictObject({
    productId: text(200).min(1),
    productName: text(500).min(1),
    productType: z.enum(PRODUCT_TYPES).optional(),
    productImageUrl: text(2000).optional(),
    eventId: text(200).optional(),
    eventImageUrl: text(2000).optional(),
    eventName: text(500).optional(),
    eventStart: dateTimeSchema.optional(),
    eventEnd: dateTimeSchema.optional(),
    eventLocation: text(1000).optional(),
    eventTimezone: timezoneSchema.optional(),
    seatingInformation: seatingInformationSchema.optional(),
    disableQrCode: z.boolean().optional(),
    willCall: z.boolean().optional(),
  })
  .superRefine(eventEndNotBeforeStart)
  .meta({ id: 'BundleComponent' }));

export const lineItemSchema = lazy(() => z
  .strictObject({
    description: text(1000).min(1),
    quantity: z.number().int('must be a whole number of units').min(1).max(1_000_000),
    unitAmount: amountSchema.meta({ description: 'Price of one unit in minor units (cents).' }),
    taxAmount: amountSchema.optional().meta({ description: 'Tax of the whole line in minor units; 0 when absent.' }),
    productId: text(200).optional(),
    priceId: text(200).optional(),
    eventId: text(200).optional().meta({ description: 'Event the line sells; ledger entries of this invoice are attributed to the first line that has one.' }),
    productName: text(500).optional(),
    productImageUrl: text(2000).optional(),
    eventName: text(500).optional(),
    eventImageUrl: text(2000).optional(),
    eventLocation: text(1000).optional(),
    eventTimezone: timezoneSchema.optional(),
    productType: z.enum(PRODUCT_TYPES).optional().meta({ description: 'Snapshot that drives fulfillment after payment.' }),
    components: z.array(bundleComponentSchema).max(100).optional().meta({ description: 'Only when `productType` is `bundle`.' }),
    disableQrCode: z.boolean().optional(),
    willCall: z.boolean().optional(),
    eventStart: dateTimeSchema.optional(),
    eventEnd: dateTimeSchema.optional(),
    seatingInformation: seatingInformationSchema.optional(),
    inventoryConsumedAt: dateTimeSchema.optional().meta({
      description: 'Server-owned: stamped by fulfillment once inventory is consumed for the line. Ignored on create; on revise the value read is accepted back (and ignored), another is 422.',
    }),
  })
  .superRefine((line, ctx) => {
    if (line.components !== undefined && line.productType !== 'bundle') {
      ctx.addIssue({ code: 'custom', path: ['components'], message: 'is allowed only when productType is bundle' });
    }
    eventEndNotBeforeStart(line, ctx);
  })
  .meta({ id: 'InvoiceLineItem' }));

export const taxIdSchema = lazy(() => z.strictObject({ type: text(100).min(1), value: text(200).min(1) }).meta({ id: 'TaxId' }));

export const refundSchema = lazy(() => z
  .object({
    id: idSchema,
    paymentId: idSchema,
    amount: z.number().int(),
    refundedAt: dateTimeSchema,
    idempotencyKey: z.string(),
    reason: z.enum(REFUND_REASONS).optional(),
    note: z.string().optional(),
    externalRefundId: z.string().optional().meta({ description: 'Processor refund id; absent for refunds of manually recorded payments.' }),
    ledgerEntryId: idSchema,
  })
  .meta({ id: 'Refund' }));

export const paymentSchema = lazy(() => z
  .object({
    id: idSchema,
    status: z.enum(['succeeded', 'failed']),
    amount: z.number().int(),
    amountRefunded: z.number().int().meta({ description: 'Sum of this payment\'s refunds; never above `amount`.' }),
    paidAt: dateTimeSchema,
    idempotencyKey: z.string().optional(),
    note: z.string().optional(),
    method: z.enum(['card', 'manual']).meta({ description: '`card`: charged through the payment processor; `manual`: recorded by the host.' }),
    externalId: z.string().optional().meta({ description: 'Processor payment-intent id (`pi_...`).' }),
    chargeId: z.string().optional().meta({ description: 'Processor charge id (`ch_...`); refunds key off it.' }),
    failureCode: z.string().optional(),
    failureMessage: z.string().optional(),
    ledgerEntryId: idSchema.optional(),
    refunds: z.array(refundSchema),
  })
  .meta({ id: 'Payment' }));

export const invoiceSchema = lazy(() => z
  .object({
    id: idSchema,
    hostId: z.string(),
    customerId: idSchema,
    customerEmail: z.string().optional(),
    customerFirstName: z.string().optional(),
    customerLastName: z.string().optional(),
    customerPhone: z.string().optional(),
    number: z.string().nullable().meta({ description: 'Gapless per-workspace number (`INV-000001`), assigned at finalize; null while draft.' }),
    currency: z.enum(CURRENCIES),
    lineItems: z.array(lineItemSchema),
    payments: z.array(paymentSchema),
    subtotal: z.number().int(),
    taxTotal: z.number().int(),
    total: z.number().int(),
    amountPaid: z.number().int().meta({ description: 'Sum of succeeded payments. Refunds do not lower it; see `amountRefunded`.' }),
    amountRefunded: z.number().int().meta({ description: 'Sum of all refunds on this invoice.' }),
    amountDue: z.number().int().meta({ description: '`total - amountPaid`, never below 0.' }),
    status: z.enum(INVOICE_STATUSES),
    autoCharge: z.boolean(),
    notes: z.string().optional(),
    taxIds: z.array(taxIdSchema),
    issuedAt: dateTimeSchema.optional(),
    dueAt: dateTimeSchema.optional(),
    paidAt: dateTimeSchema.optional(),
    voidedAt: dateTimeSchema.optional(),
    subscriptionId: z.string().optional(),
    quoteId: z.string().optional(),
    version: versionSchema,
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  })
  .meta({ id: 'Invoice' }));

const invoiceFields = lazy(() => ({
  customerId: idSchema.meta({ description: 'Id of a contact of this workspace.' }),
  customerEmail: text(320).optional(),
  customerFirstName: text(200).optional(),
  customerLastName: text(200).optional(),
  customerPhone: text(50).optional(),
  currency: z.enum(CURRENCIES),
  lineItems: z.array(lineItemSchema).min(1, 'must contain at least 1 line item').max(250),
  notes: text(5000).optional(),
  taxIds: z.array(taxIdSchema).max(20).optional(),
  dueAt: dateTimeSchema.optional(),
  subscriptionId: text(200).optional(),
  quoteId: text(200).optional(),
  autoCharge: z.boolean().optional(),
}));

const changedByTransitions = 'it changes with finalize, payments, refunds and void';

/** What an invoice's GET returns that its create and revise do not set (API.md "Round trips and references"). */
export const INVOICE_ROUND_TRIP: RoundTrip = {
  resource: 'invoice',
  readOnly: {
    id: undefined, hostId: undefined, createdAt: undefined, number: 'assigned at finalize', status: changedByTransitions,
    payments: changedByTransitions, issuedAt: changedByTransitions, paidAt: changedByTransitions, voidedAt: changedByTransitions,
  },
  derived: ['subtotal', 'taxTotal', 'total', 'amountPaid', 'amountRefunded', 'amountDue', 'updatedAt'],
};

export const createInvoiceBodySchema = lazy(() => z.strictObject({ ...echoedFields(invoiceSchema.shape, INVOICE_ROUND_TRIP, 'create'), ...invoiceFields }).meta({ id: 'CreateInvoice' }));
type InvoiceFields = typeof invoiceFields;

/** The create fields an invoice may lack: a revise removes them with `null`. (`taxIds` and `autoCharge` always have a value: send `[]` or `false`.) */
const CLEARABLE_FIELDS = ['customerEmail', 'customerFirstName', 'customerLastName', 'customerPhone', 'notes', 'dueAt', 'subscriptionId', 'quoteId'] as const;
type ClearableField = (typeof CLEARABLE_FIELDS)[number];

/** The create fields for a revise: any may be sent, and `null` removes an optional one (as on events, forms, contacts and checkouts). */
const revisableFields = lazy(() => Object.fromEntries(
  Object.entries(invoiceFields).map(([key, schema]) => [key, (CLEARABLE_FIELDS as readonly string[]).includes(key) ? (schema as z.ZodOptional<z.ZodType>).unwrap().nullable().optional() : schema.optional()]),
) as { [K in keyof InvoiceFields]: K extends ClearableField ? InvoiceFields[K] extends z.ZodOptional<infer S> ? z.ZodOptional<z.ZodNullable<S>> : never : z.ZodOptional<InvoiceFields[K]> });

export const reviseInvoiceBodySchema = lazy(() => z.strictObject({ ...echoedFields(invoiceSchema.shape, INVOICE_ROUND_TRIP, 'update'), ...revisableFields })
  .meta({ id: 'ReviseInvoice', description: 'Only the fields sent change; `null` removes an optional field.' }));

/** How far a payment's `paidAt` may run ahead of the server's clock (the client's clock may be a little fast). */
export const PAID_AT_CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * When the money was received. Settlement counts from it, so a future one would hold the money as
 * pending until then: refused beyond the clock skew (422 on `paidAt`). A past one is an offline payment
 * recorded late. Judged by the service after a repeated `idempotencyKey` is recognised: the repeat of a
 * recorded payment answers it whatever its `paidAt`, as documented.
 */
export function assertPaidAtNotFuture(paidAt: string | undefined, now: Date): void {
  if (paidAt !== undefined && Date.parse(paidAt) > now.getTime() + PAID_AT_CLOCK_SKEW_MS) {
    throw new ValidationError({ path: 'paidAt', message: 'must not be in the future' });
  }
}

export const recordPaymentBodySchema = lazy(() => z
  .strictObject({
    amount: positiveAmountSchema,
    idempotencyKey: z.string().min(1).max(255).meta({ description: 'Caller dedupe key: a repeat with the same `amount` returns the existing payment unchanged (`note` and `paidAt` of the repeat are ignored); with another `amount` it is 409 `idempotency_key_reused`.' }),
    note: text(2000).optional(),
    paidAt: dateTimeSchema.optional().meta({ description: 'When the money was received (default: now). Not in the future (5 minutes of clock skew): settlement counts from it.' }),
  })
  .meta({ id: 'RecordPayment' }));

export const createRefundBodySchema = lazy(() => z
  .strictObject({
    amount: positiveAmountSchema,
    reason: z.enum(REFUND_REASONS).optional(),
    note: text(2000).optional(),
    idempotencyKey: z.string().min(1).max(255).meta({ description: 'Caller dedupe key: a repeat on the same payment with the same `amount` returns the existing refund unchanged (`reason` and `note` of the repeat are ignored); with another `amount` or payment it is 409 `idempotency_key_reused`.' }),
  })
  .meta({ id: 'CreateRefund' }));

export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export type LineItem = z.infer<typeof lineItemSchema>;
export type Invoice = z.infer<typeof invoiceSchema>;
export type Payment = z.infer<typeof paymentSchema>;
export type Refund = z.infer<typeof refundSchema>;
export type CreateInvoiceInput = z.infer<typeof createInvoiceBodySchema>;
export type ReviseInvoiceInput = z.infer<typeof reviseInvoiceBodySchema>;
export type RecordPaymentInput = z.infer<typeof recordPaymentBodySchema>;
export type CreateRefundInput = z.infer<typeof createRefundBodySchema>;


export const INVOICE_ENTITY = 'Invoice';
export const INVOICE_COUNTER_ENTITY = 'InvoiceCounter';
export const PAYMENT_RECORD_ENTITY = 'PaymentRecord';
export const PAYMENT_KEY_GUARD_ENTITY = 'PaymentKeyGuard';
export const REFUND_KEY_GUARD_ENTITY = 'RefundKeyGuard';
export const REFUND_DUE_ENTITY = 'RefundDue';
export const INVOICE_BY_CUSTOMER_ENTITY = 'InvoiceByCustomer';
export const INVOICE_BY_STATUS_ENTITY = 'InvoiceByStatus';
export const INVOICE_BY_CUSTOMER_STATUS_ENTITY = 'InvoiceByCustomerStatus';

/** What refunds need of a succeeded payment, plus the refundable remainder they are conditioned on. */
export interface PaymentRecord {
  paymentId: string;
  invoiceId: string;
  /** Position in the invoice's `payments` (append-only, so stable). */
  index: number;
  amount: number;
  /** amount - sum(refunds): a refund is a conditional `refundable >= :amount` decrement. */
  refundable: number;
  currency: string;
  /** When the payment's money settles: a refund before then leaves the same settlement bucket. */
  availableAt: string;
  eventId?: string;
  chargeId?: string;
}

/**
 * Key builders: the only place invoice keys are spelled.
 * - invoice: `WS#<ws>#INVOICE` / `<id>`; payments and their refunds are embedded (the audit log).
 * - list projections (keys only, plus the filter values), written in the same transaction as the
 *   invoice: `WS#<ws>#INVOICE_BY_CUSTOMER#<customerId>`, `WS#<ws>#INVOICE_BY_STATUS#<status>` and
 *   `WS#<ws>#INVOICE_BY_CUSTOMER_STATUS#<customerId>#<status>`, sort key `<id>`: every filter combination is
 *   a Query on its own partition, in creation order (`byCreatedAt`, like the invoice partition).
 * - number counter: `WS#<ws>#COUNTER` / `INVOICE_NUMBER`, `lastNumber`; bumped in the finalize
 *   transaction, conditioned on the value read, so numbers are gapless and unique.
 * - payment record: `WS#<ws>#PAYMENT` / `<paymentId>`: the `refundable` counter of a succeeded payment.
 * - payment key guard: `WS#<ws>#PAYMENTKEY` / `<invoiceId>#<idempotencyKey>` -> `paymentId`.
 * - refund reservation: `WS#<ws>#REFUNDKEY` / `<paymentId>#<idempotencyKey>`: the refund taken against
 *   the payment (`reserved`, then `completed`), so a retried or crashed refund resumes exactly once.
 * - refund due: `REFUNDS_DUE` / `<completeBy>#<ws>#<paymentId>#<idempotencyKey>`: one item per reserved
 *   refund, written with the reservation and deleted with its completion or release. The scheduled
 *   reconciler reads the ones past `completeBy` (one Query, oldest first) and finishes them. Platform
 *   wide on purpose (the reconciler serves every workspace); two writes per refund.
 */
export const invoiceKeys = {
  invoicePartition: (workspaceId: string) => `WS#${workspaceId}#INVOICE`,
  invoice: (workspaceId: string, id: string): ItemKey => itemKey(invoiceKeys.invoicePartition(workspaceId), id),
  byCustomerPartition: (workspaceId: string, customerId: string) => `WS#${workspaceId}#INVOICE_BY_CUSTOMER#${customerId}`,
  byStatusPartition: (workspaceId: string, status: InvoiceStatus) => `WS#${workspaceId}#INVOICE_BY_STATUS#${status}`,
  /** Both filters at once: `WS#<ws>#INVOICE_BY_CUSTOMER_STATUS#<customerId>#<status>` / `<id>`. */
  byCustomerStatusPartition: (workspaceId: string, customerId: string, status: InvoiceStatus) => `WS#${workspaceId}#INVOICE_BY_CUSTOMER_STATUS#${customerId}#${status}`,
  byCustomer: (workspaceId: string, customerId: string, id: string): ItemKey => itemKey(invoiceKeys.byCustomerPartition(workspaceId, customerId), id),
  byStatus: (workspaceId: string, status: InvoiceStatus, id: string): ItemKey => itemKey(invoiceKeys.byStatusPartition(workspaceId, status), id),
  byCustomerStatus: (workspaceId: string, customerId: string, status: InvoiceStatus, id: string): ItemKey =>
    itemKey(invoiceKeys.byCustomerStatusPartition(workspaceId, customerId, status), id),
  counter: (workspaceId: string): ItemKey => itemKey(`WS#${workspaceId}#COUNTER`, 'INVOICE_NUMBER'),
  paymentRecord: (workspaceId: string, paymentId: string): ItemKey => itemKey(`WS#${workspaceId}#PAYMENT`, paymentId),
  paymentKeyGuard: (workspaceId: string, invoiceId: string, idempotencyKey: string): ItemKey =>
    itemKey(`WS#${workspaceId}#PAYMENTKEY`, `${invoiceId}#${idempotencyKey}`),
  refundKeyGuard: (workspaceId: string, paymentId: string, idempotencyKey: string): ItemKey =>
    itemKey(`WS#${workspaceId}#REFUNDKEY`, `${paymentId}#${idempotencyKey}`),
  refundsDuePartition: 'REFUNDS_DUE',
  refundDue: (due: RefundDue): ItemKey => itemKey(invoiceKeys.refundsDuePartition, `${due.completeBy}#${due.workspaceId}#${due.paymentId}#${due.idempotencyKey}`),
  /** Sort-key bound of the refunds due at `moment` (ISO timestamps sort as text; `~` sorts after `#`). */
  refundsDueUntil: (moment: string): string => `${moment}~`,
};

/** A reserved refund the reconciler must finish if its request does not by `completeBy`. */
export interface RefundDue {
  workspaceId: string;
  paymentId: string;
  idempotencyKey: string;
  completeBy: string;
}

export function toRefundDueItem(due: RefundDue): Record<string, unknown> {
  return { ...invoiceKeys.refundDue(due), ...entityAttribute(REFUND_DUE_ENTITY), ...due };
}

export function fromRefundDueItem(item: Record<string, unknown>): RefundDue {
  const { workspaceId, paymentId, idempotencyKey, completeBy } = withoutKeys(item) as unknown as RefundDue;
  return { workspaceId, paymentId, idempotencyKey, completeBy };
}

/** What a list of invoices can be narrowed and ordered by (the route's query, minus paging). */
export interface InvoiceListFilter {
  status?: InvoiceStatus | undefined;
  customerId?: string | undefined;
  direction: SortDirection;
}

/** The partition that holds exactly the invoices matching the filter, in creation order. */
export function invoiceListPartition(workspaceId: string, filter: InvoiceListFilter): string {
  if (filter.customerId !== undefined && filter.status !== undefined) return invoiceKeys.byCustomerStatusPartition(workspaceId, filter.customerId, filter.status);
  if (filter.customerId !== undefined) return invoiceKeys.byCustomerPartition(workspaceId, filter.customerId);
  if (filter.status !== undefined) return invoiceKeys.byStatusPartition(workspaceId, filter.status);
  return invoiceKeys.invoicePartition(workspaceId);
}

/** Stored form: the public shape minus derived figures, which are recomputed on every read. */
export function toInvoiceItem(workspaceId: string, invoice: Invoice): Record<string, unknown> {
  const payments = invoice.payments.map(({ amountRefunded: _refunded, ...payment }) => payment);
  const key = invoiceKeys.invoice(workspaceId, invoice.id);
  return { ...key, ...creationOrderKey(key, invoice.createdAt, invoice.id), ...entityAttribute(INVOICE_ENTITY), ...invoice, payments };
}

/** Maps a stored item back to the public shape; totals are recomputed so they can never drift. */
export function fromInvoiceItem(item: Record<string, unknown>): Invoice {
  const invoice = withoutKeys(item) as unknown as Invoice;
  const payments: Payment[] = (invoice.payments ?? []).map((payment) => ({
    ...payment,
    refunds: payment.refunds ?? [],
    amountRefunded: (payment.refunds ?? []).reduce((sum, refund) => sum + refund.amount, 0),
  }));
  return { ...invoice, number: invoice.number ?? null, taxIds: invoice.taxIds ?? [], payments, ...computeTotals(invoice.lineItems, payments) };
}

/** The id an invoice list projection points at. */
export function projectedInvoiceId(item: Record<string, unknown>): string {
  return item.invoiceId as string;
}

/**
 * How the list projections follow an invoice change: items to put (new or refreshed) and keys to
 * delete (the projections under a status or customer the invoice left). Never the same key twice, so
 * the result fits in one TransactWrite with the invoice.
 */
export function projectionChanges(workspaceId: string, before: Invoice | undefined, after: Invoice): { puts: Record<string, unknown>[]; deletes: ItemKey[] } {
  const puts: Record<string, unknown>[] = [];
  const deletes: ItemKey[] = [];
  const attributes = { invoiceId: after.id, status: after.status, customerId: after.customerId };
  const customerMoved = before === undefined || before.customerId !== after.customerId;
  const statusMoved = before === undefined || before.status !== after.status;
  if (before && customerMoved) deletes.push(invoiceKeys.byCustomer(workspaceId, before.customerId, before.id));
  if (before && statusMoved) deletes.push(invoiceKeys.byStatus(workspaceId, before.status, before.id));
  if (before && (customerMoved || statusMoved)) deletes.push(invoiceKeys.byCustomerStatus(workspaceId, before.customerId, before.status, before.id));
  if (customerMoved || statusMoved) {
    const projection = (key: ItemKey, entity: string) => ({ ...key, ...creationOrderKey(key, after.createdAt, after.id), ...entityAttribute(entity), ...attributes });
    puts.push(projection(invoiceKeys.byCustomer(workspaceId, after.customerId, after.id), INVOICE_BY_CUSTOMER_ENTITY));
    puts.push(projection(invoiceKeys.byStatus(workspaceId, after.status, after.id), INVOICE_BY_STATUS_ENTITY));
    puts.push(projection(invoiceKeys.byCustomerStatus(workspaceId, after.customerId, after.status, after.id), INVOICE_BY_CUSTOMER_STATUS_ENTITY));
  }
  return { puts, deletes };
}
