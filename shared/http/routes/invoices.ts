import * as z from 'zod';
import { defineRoute } from '../route.js';
import { dataResponse, dateTimeSchema, idParams, idSchema, listQuery, listResponse } from '../schemas.js';

export const CURRENCIES = ['USD', 'CAD'] as const;
export const INVOICE_STATUSES = ['draft', 'open', 'payment_failed', 'paid', 'void'] as const;
export const PRODUCT_TYPES = ['product', 'add-on', 'bundle', 'donation', 'event-ticket'] as const;
export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

const MAX_SAFE = 9_007_199_254_740_991;
/** Amounts in requests: integer minor units, never negative. */
const amountSchema = z.number().int('must be an integer number of minor units').min(0).max(MAX_SAFE);
/** Amounts that move money: strictly positive integers. */
const positiveAmountSchema = z.number().int('must be an integer number of minor units').min(1).max(MAX_SAFE);
const text = (max = 1000) => z.string().max(max);

function isIanaTimezone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value.length > 0;
  } catch {
    return false;
  }
}

const timezoneSchema = z.string().refine(isIanaTimezone, 'must be an IANA timezone name, e.g. America/New_York').meta({ example: 'America/New_York' });
const isoStringSchema = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 date-time.' });

export const seatingInformationSchema = z
  .strictObject({
    sectionId: text(200).optional(),
    rowId: text(200).optional(),
    seatId: text(200).optional(),
    seatReferenceId: text(200).optional(),
    sectionReferenceId: text(200).optional(),
    priceLevelId: text(200).optional(),
  })
  .meta({ id: 'SeatingInformation', description: 'Display labels and references of an assigned seat.' });

export const bundleComponentSchema = z
  .strictObject({
    productId: text(200).min(1),
    productName: text(500).min(1),
    productType: z.enum(PRODUCT_TYPES).optional(),
    productImageUrl: text(2000).optional(),
    eventId: text(200).optional(),
    eventImageUrl: text(2000).optional(),
    eventName: text(500).optional(),
    eventStart: isoStringSchema.optional(),
    eventEnd: isoStringSchema.optional(),
    eventLocation: text(1000).optional(),
    eventTimezone: timezoneSchema.optional(),
    seatingInformation: seatingInformationSchema.optional(),
    disableQrCode: z.boolean().optional(),
    willCall: z.boolean().optional(),
  })
  .meta({ id: 'BundleComponent' });

export const lineItemSchema = z
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
    eventStart: isoStringSchema.optional(),
    eventEnd: isoStringSchema.optional(),
    seatingInformation: seatingInformationSchema.optional(),
    inventoryConsumedAt: dateTimeSchema.optional(),
  })
  .superRefine((line, ctx) => {
    if (line.components !== undefined && line.productType !== 'bundle') {
      ctx.addIssue({ code: 'custom', path: ['components'], message: 'is allowed only when productType is bundle' });
    }
  })
  .meta({ id: 'InvoiceLineItem' });

export const taxIdSchema = z.strictObject({ type: text(100).min(1), value: text(200).min(1) }).meta({ id: 'TaxId' });

export const refundSchema = z
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
  .meta({ id: 'Refund' });

export const paymentSchema = z
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
  .meta({ id: 'Payment' });

export const invoiceSchema = z
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
    version: z.number().int().meta({ description: 'Optimistic-concurrency version; send it as `If-Match` on updates.' }),
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  })
  .meta({ id: 'Invoice' });

const invoiceFields = {
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
};

export const createInvoiceBodySchema = z.strictObject(invoiceFields).meta({ id: 'CreateInvoice' });
export const reviseInvoiceBodySchema = z.strictObject(invoiceFields).partial().meta({ id: 'ReviseInvoice' });

export const recordPaymentBodySchema = z
  .strictObject({
    amount: positiveAmountSchema,
    idempotencyKey: z.string().min(1).max(255).meta({ description: 'Caller dedupe key: a repeat returns the existing payment.' }),
    note: text(2000).optional(),
    paidAt: dateTimeSchema.optional(),
  })
  .meta({ id: 'RecordPayment' });

export const createRefundBodySchema = z
  .strictObject({
    amount: positiveAmountSchema,
    reason: z.enum(REFUND_REASONS).optional(),
    note: text(2000).optional(),
    idempotencyKey: z.string().min(1).max(255).meta({ description: 'Caller dedupe key: a repeat returns the existing refund.' }),
  })
  .meta({ id: 'CreateRefund' });

export type Currency = (typeof CURRENCIES)[number];
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export type LineItem = z.infer<typeof lineItemSchema>;
export type Invoice = z.infer<typeof invoiceSchema>;
export type Payment = z.infer<typeof paymentSchema>;
export type Refund = z.infer<typeof refundSchema>;
export type CreateInvoiceInput = z.infer<typeof createInvoiceBodySchema>;
export type ReviseInvoiceInput = z.infer<typeof reviseInvoiceBodySchema>;
export type RecordPaymentInput = z.infer<typeof recordPaymentBodySchema>;
export type CreateRefundInput = z.infer<typeof createRefundBodySchema>;

const invoiceParams = idParams('invoiceId');
const ifMatchNote = ' Send `If-Match: <version>` to fail with 409 `conflict` when the invoice changed since you read it.';

export const invoiceListQuerySchema = listQuery(['createdAt'], 'createdAt', {
  status: z.enum(INVOICE_STATUSES).optional(),
  customerId: idSchema.optional(),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuerySchema>;

export const invoicesRoutes = {
  createInvoice: defineRoute({
    group: 'invoices',
    operation: 'createInvoice',
    method: 'POST',
    path: '/v1/invoices',
    auth: 'key',
    tags: ['Invoices'],
    summary: 'Create a draft invoice',
    description: 'Created as `draft` with `number` null; totals are computed from the line items. `customerId` must be a contact of the workspace (422 otherwise); customer snapshots that are not given are copied from the contact.',
    body: createInvoiceBodySchema,
    success: { status: 201, description: 'The draft invoice.', schema: dataResponse(invoiceSchema) },
    errors: [401, 403, 409, 422],
  }),
  listInvoices: defineRoute({
    group: 'invoices',
    operation: 'listInvoices',
    method: 'GET',
    path: '/v1/invoices',
    auth: 'key',
    tags: ['Invoices'],
    summary: 'List invoices',
    description: 'Generic list, in creation order. Filters `status` and `customerId` are applied while reading the workspace\'s invoice partition, so a filtered page may read more items than it returns.',
    query: invoiceListQuerySchema,
    success: { status: 200, description: 'One page of invoices.', schema: listResponse(invoiceSchema).meta({ id: 'InvoiceList' }) },
    errors: [400, 401, 403],
  }),
  getInvoice: defineRoute({
    group: 'invoices',
    operation: 'getInvoice',
    method: 'GET',
    path: '/v1/invoices/{invoiceId}',
    auth: 'key',
    tags: ['Invoices'],
    summary: 'Get an invoice',
    params: invoiceParams,
    success: { status: 200, description: 'The invoice.', schema: dataResponse(invoiceSchema) },
    errors: [401, 403, 404],
  }),
  reviseInvoice: defineRoute({
    ifMatch: true,
    group: 'invoices',
    operation: 'reviseInvoice',
    method: 'PATCH',
    path: '/v1/invoices/{invoiceId}',
    auth: 'key',
    tags: ['Invoices'],
    summary: 'Revise a draft invoice',
    description: `Any create field; \`draft\` only (409 \`invalid_state\` otherwise); totals are recomputed.${ifMatchNote}`,
    params: invoiceParams,
    body: reviseInvoiceBodySchema,
    success: { status: 200, description: 'The revised invoice.', schema: dataResponse(invoiceSchema) },
    errors: [401, 403, 404, 409, 422],
  }),
  finalizeInvoice: defineRoute({
    ifMatch: true,
    group: 'invoices',
    operation: 'finalizeInvoice',
    method: 'POST',
    path: '/v1/invoices/{invoiceId}/finalize',
    auth: 'key',
    tags: ['Invoices'],
    summary: 'Finalize (issue) a draft invoice',
    description: `\`draft\` only. Assigns the next gapless per-workspace \`number\` and sets \`issuedAt\`; status becomes \`open\`. With \`autoCharge\` the contact's saved card is charged: success -> \`paid\`, decline / authentication required / no card -> \`payment_failed\` with a \`failed\` payment logged. A zero-total invoice is \`paid\` at once.${ifMatchNote}`,
    params: invoiceParams,
    success: { status: 200, description: 'The finalized invoice.', schema: dataResponse(invoiceSchema) },
    errors: [401, 403, 404, 409],
  }),
  chargeInvoice: defineRoute({
    group: 'invoices',
    operation: 'chargeInvoice',
    method: 'POST',
    path: '/v1/invoices/{invoiceId}/charge',
    auth: 'key',
    tags: ['Invoices'],
    summary: 'Retry the charge of the saved card',
    description: 'From `open` or `payment_failed`: charges `amountDue` to the contact\'s saved card. Success -> `paid`; failure -> `payment_failed` with a `failed` payment logged.',
    params: invoiceParams,
    success: { status: 200, description: 'The invoice after the attempt.', schema: dataResponse(invoiceSchema) },
    errors: [401, 403, 404, 409],
  }),
  recordPayment: defineRoute({
    group: 'invoices',
    operation: 'recordInvoicePayment',
    method: 'POST',
    path: '/v1/invoices/{invoiceId}/payments',
    auth: 'key',
    tags: ['Invoices'],
    summary: 'Record a (partial) payment',
    description: 'From `open` or `payment_failed`. `amount` above `amountDue` is 422. Reaching `amountDue` 0 makes the invoice `paid` with `paidAt`. A repeated `idempotencyKey` on the same invoice returns the existing payment and applies nothing.',
    params: invoiceParams,
    body: recordPaymentBodySchema,
    success: { status: 201, description: 'The payment (also appended to the invoice\'s `payments`).', schema: dataResponse(paymentSchema) },
    errors: [401, 403, 404, 409, 422],
  }),
  refundPayment: defineRoute({
    group: 'invoices',
    operation: 'refundInvoicePayment',
    method: 'POST',
    path: '/v1/invoices/{invoiceId}/payments/{paymentId}/refunds',
    auth: 'key',
    tags: ['Invoices'],
    summary: 'Refund a payment',
    description: 'Only on `succeeded` payments (422 otherwise). Cumulative refunds above the payment `amount` are 422, also under concurrent requests. A repeated `idempotencyKey` on the same payment returns the existing refund. Refunds do not change the invoice status or `amountPaid`.',
    params: idParams('invoiceId', 'paymentId'),
    body: createRefundBodySchema,
    success: { status: 201, description: 'The refund.', schema: dataResponse(refundSchema) },
    errors: [401, 403, 404, 409, 422],
  }),
  voidInvoice: defineRoute({
    ifMatch: true,
    group: 'invoices',
    operation: 'voidInvoice',
    method: 'POST',
    path: '/v1/invoices/{invoiceId}/void',
    auth: 'key',
    tags: ['Invoices'],
    summary: 'Void an invoice',
    description: `From \`draft\`, \`open\` or \`payment_failed\` with no succeeded payment (409 \`invalid_state\` otherwise); sets \`voidedAt\`.${ifMatchNote}`,
    params: invoiceParams,
    success: { status: 200, description: 'The void invoice.', schema: dataResponse(invoiceSchema) },
    errors: [401, 403, 404, 409],
  }),
};
