import { TABLE_KEYS } from '../db/table-design.js';
import type { Invoice, InvoiceStatus, Payment } from '../http/routes/invoices.js';
import { computeTotals } from './invoice-totals.js';

export const INVOICE_ENTITY = 'Invoice';
export const INVOICE_COUNTER_ENTITY = 'InvoiceCounter';
export const PAYMENT_RECORD_ENTITY = 'PaymentRecord';
export const PAYMENT_KEY_GUARD_ENTITY = 'PaymentKeyGuard';
export const REFUND_KEY_GUARD_ENTITY = 'RefundKeyGuard';
export const INVOICE_BY_CUSTOMER_ENTITY = 'InvoiceByCustomer';
export const INVOICE_BY_STATUS_ENTITY = 'InvoiceByStatus';

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
 * - list projections (keys only, plus the other filter's value), written in the same transaction as
 *   the invoice: `WS#<ws>#INVOICE_BY_CUSTOMER#<customerId>` / `<id>` and
 *   `WS#<ws>#INVOICE_BY_STATUS#<status>` / `<id>`, so filtered lists are Queries on their own key.
 * - number counter: `WS#<ws>#COUNTER` / `INVOICE_NUMBER`, `lastNumber`; bumped in the finalize
 *   transaction, conditioned on the value read, so numbers are gapless and unique.
 * - payment record: `WS#<ws>#PAYMENT` / `<paymentId>`: the `refundable` counter of a succeeded payment.
 * - payment key guard: `WS#<ws>#PAYMENTKEY` / `<invoiceId>#<idempotencyKey>` -> `paymentId`.
 * - refund reservation: `WS#<ws>#REFUNDKEY` / `<paymentId>#<idempotencyKey>`: the refund taken against
 *   the payment (`reserved`, then `completed`), so a retried or crashed refund resumes exactly once.
 */
export const invoiceKeys = {
  invoicePartition: (workspaceId: string) => `WS#${workspaceId}#INVOICE`,
  invoice: (workspaceId: string, id: string) => ({
    [TABLE_KEYS.partitionKey]: invoiceKeys.invoicePartition(workspaceId),
    [TABLE_KEYS.sortKey]: id,
  }),
  byCustomerPartition: (workspaceId: string, customerId: string) => `WS#${workspaceId}#INVOICE_BY_CUSTOMER#${customerId}`,
  byStatusPartition: (workspaceId: string, status: InvoiceStatus) => `WS#${workspaceId}#INVOICE_BY_STATUS#${status}`,
  byCustomer: (workspaceId: string, customerId: string, id: string) => ({
    [TABLE_KEYS.partitionKey]: invoiceKeys.byCustomerPartition(workspaceId, customerId),
    [TABLE_KEYS.sortKey]: id,
  }),
  byStatus: (workspaceId: string, status: InvoiceStatus, id: string) => ({
    [TABLE_KEYS.partitionKey]: invoiceKeys.byStatusPartition(workspaceId, status),
    [TABLE_KEYS.sortKey]: id,
  }),
  counter: (workspaceId: string) => ({ [TABLE_KEYS.partitionKey]: `WS#${workspaceId}#COUNTER`, [TABLE_KEYS.sortKey]: 'INVOICE_NUMBER' }),
  paymentRecord: (workspaceId: string, paymentId: string) => ({
    [TABLE_KEYS.partitionKey]: `WS#${workspaceId}#PAYMENT`,
    [TABLE_KEYS.sortKey]: paymentId,
  }),
  paymentKeyGuard: (workspaceId: string, invoiceId: string, idempotencyKey: string) => ({
    [TABLE_KEYS.partitionKey]: `WS#${workspaceId}#PAYMENTKEY`,
    [TABLE_KEYS.sortKey]: `${invoiceId}#${idempotencyKey}`,
  }),
  refundKeyGuard: (workspaceId: string, paymentId: string, idempotencyKey: string) => ({
    [TABLE_KEYS.partitionKey]: `WS#${workspaceId}#REFUNDKEY`,
    [TABLE_KEYS.sortKey]: `${paymentId}#${idempotencyKey}`,
  }),
};

/** Stored form: the public shape minus derived figures, which are recomputed on every read. */
export function toInvoiceItem(workspaceId: string, invoice: Invoice): Record<string, unknown> {
  const payments = invoice.payments.map(({ amountRefunded: _refunded, ...payment }) => payment);
  return { ...invoiceKeys.invoice(workspaceId, invoice.id), [TABLE_KEYS.entityType]: INVOICE_ENTITY, ...invoice, payments };
}

/** Maps a stored item back to the public shape; totals are recomputed so they can never drift. */
export function fromInvoiceItem(item: Record<string, unknown>): Invoice {
  const { PK: _pk, SK: _sk, entity: _entity, ...stored } = item;
  const invoice = stored as unknown as Invoice;
  const payments: Payment[] = (invoice.payments ?? []).map((payment) => ({
    ...payment,
    refunds: payment.refunds ?? [],
    amountRefunded: (payment.refunds ?? []).reduce((sum, refund) => sum + refund.amount, 0),
  }));
  return { ...invoice, number: invoice.number ?? null, taxIds: invoice.taxIds ?? [], payments, ...computeTotals(invoice.lineItems, payments) };
}

type Key = Record<string, string>;

/**
 * How the list projections follow an invoice change: items to put (new or refreshed) and keys to
 * delete (the projection under a status or customer the invoice left). Never the same key twice, so
 * the result fits in one TransactWrite with the invoice.
 */
export function projectionChanges(workspaceId: string, before: Invoice | undefined, after: Invoice): { puts: Record<string, unknown>[]; deletes: Key[] } {
  const puts: Record<string, unknown>[] = [];
  const deletes: Key[] = [];
  const attributes = { invoiceId: after.id, status: after.status, customerId: after.customerId };
  const customerMoved = before === undefined || before.customerId !== after.customerId;
  const statusMoved = before === undefined || before.status !== after.status;
  if (before && customerMoved) deletes.push(invoiceKeys.byCustomer(workspaceId, before.customerId, before.id));
  if (before && statusMoved) deletes.push(invoiceKeys.byStatus(workspaceId, before.status, before.id));
  if (customerMoved || statusMoved) {
    puts.push({ ...invoiceKeys.byCustomer(workspaceId, after.customerId, after.id), [TABLE_KEYS.entityType]: INVOICE_BY_CUSTOMER_ENTITY, ...attributes });
    puts.push({ ...invoiceKeys.byStatus(workspaceId, after.status, after.id), [TABLE_KEYS.entityType]: INVOICE_BY_STATUS_ENTITY, ...attributes });
  }
  return { puts, deletes };
}
