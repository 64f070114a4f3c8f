import { batchGetItems } from '../db/batch-get.js';
import { deleteItem, getItem, versionIs } from '../db/conditional.js';
import { queryFirst, queryPage, type Page, type PageRequest } from '../db/query.js';
import { entityAttribute, entityNames, exists, notExists } from '../db/table-design.js';
import { transaction, type Transaction } from '../db/transaction.js';
import { ConflictError } from '../errors.js';
import { outboxEvents } from '../webhooks/webhook-outbox.js';
import { invoiceEvents } from './invoice-events.js';
import {
  INVOICE_COUNTER_ENTITY, PAYMENT_KEY_GUARD_ENTITY, PAYMENT_RECORD_ENTITY, REFUND_KEY_GUARD_ENTITY,
  fromInvoiceItem, fromRefundDueItem, invoiceKeys, invoiceListPartition, projectedInvoiceId, projectionChanges, toInvoiceItem, toRefundDueItem,
  type Invoice, type InvoiceListFilter, type PaymentRecord, type Refund, type RefundDue,
} from './invoice-model.js';

/** Another finalize took the number read from the counter: read the counter again. */
export class InvoiceNumberTakenError extends Error {
  constructor() {
    super('The invoice number was taken concurrently.');
    this.name = 'InvoiceNumberTakenError';
  }
}

/** A concurrent request recorded the same payment or refund idempotency key first. */
export class IdempotencyKeyTakenError extends Error {
  constructor() {
    super('The idempotency key was recorded concurrently.');
    this.name = 'IdempotencyKeyTakenError';
  }
}

/** The refund would take the payment's cumulative refunds above its amount. */
export class RefundExceedsPaymentError extends Error {
  constructor() {
    super('Cumulative refunds would exceed the payment amount.');
    this.name = 'RefundExceedsPaymentError';
  }
}

/** Extra effects committed in the same transaction as an invoice change. */
export interface InvoiceChangeEffects {
  /** Finalize: the counter value read; the change takes `previous + 1`. */
  numbering?: { previous: number };
  /** A recorded payment's idempotency key. */
  paymentKey?: { idempotencyKey: string; paymentId: string };
  /** A succeeded payment's refund counter. */
  paymentRecord?: PaymentRecord;
  /** Ledger bookings (payments), built by the ledger. */
  ledger?: Transaction;
}

/** Adds the list projections that follow a change from `before` to `after`. */
function withProjections(tx: Transaction, workspaceId: string, before: Invoice | undefined, after: Invoice): Transaction {
  const { puts, deletes } = projectionChanges(workspaceId, before, after);
  for (const key of deletes) tx.delete(key);
  for (const item of puts) tx.put(item);
  return tx;
}

/** Creates the invoice and its list projections in one transaction. */
export async function insertInvoice(workspaceId: string, invoice: Invoice): Promise<void> {
  const tx = transaction().put(toInvoiceItem(workspaceId, invoice), { ...notExists(), onFailed: () => new ConflictError('An invoice with this id already exists.') });
  await withProjections(tx, workspaceId, undefined, invoice).commit();
}

/**
 * One invoice. `consistent` for the read of a read-modify-write (the decision is taken on it); a
 * plain GET reads eventually consistent at half the cost (a write made a moment ago may be missed for
 * well under a second; the version on the answer tells the client what it saw).
 */
export async function getInvoice(workspaceId: string, id: string, options: { consistent?: boolean } = {}): Promise<Invoice | undefined> {
  const item = await getItem(invoiceKeys.invoice(workspaceId, id), options);
  return item ? fromInvoiceItem(item) : undefined;
}

/**
 * One page of the workspace's invoices in creation order (the `byCreatedAt` index of the partition:
 * `<createdAt>#<id>`; ids alone order by second only). Unfiltered: a Query on the invoice partition. With `status` and/or `customerId`: a Query on the projection partition
 * of exactly that combination, then one BatchGet of the page. One Query per cursor page; the cost
 * never depends on the workspace's other invoices.
 */
export async function listInvoices(workspaceId: string, filter: InvoiceListFilter, request: PageRequest): Promise<Page<Invoice>> {
  const scope = { owner: workspaceId, list: 'invoices', shape: { ...filter } };
  const query = { index: 'byCreatedAt' as const, partition: invoiceListPartition(workspaceId, filter), ascending: filter.direction === 'asc' };
  const page = await queryPage(query, request, scope);
  if (filter.status === undefined && filter.customerId === undefined) return { ...page, items: page.items.map(fromInvoiceItem) };
  const ids = page.items.map(projectedInvoiceId);
  const found = await batchGetItems(ids.map((id) => invoiceKeys.invoice(workspaceId, id)));
  const byId = new Map(found.map((item) => [fromInvoiceItem(item).id, fromInvoiceItem(item)]));
  // An invoice that changed status between the two reads no longer matches: leave it out.
  const items = ids.flatMap((id) => byId.get(id) ?? [])
    .filter((invoice) => (filter.status === undefined || invoice.status === filter.status) && (filter.customerId === undefined || invoice.customerId === filter.customerId));
  return { ...page, items };
}

/** The last invoice number handed out in the workspace (0 before the first finalize). Strong: finalize decides on it. */
export async function readInvoiceCounter(workspaceId: string): Promise<number> {
  const item = await getItem(invoiceKeys.counter(workspaceId), { consistent: true });
  return typeof item?.lastNumber === 'number' ? item.lastNumber : 0;
}

/** A payment's refund counter. Strong: a refund decides on it. */
export async function getPaymentRecord(workspaceId: string, paymentId: string): Promise<PaymentRecord | undefined> {
  const item = await getItem(invoiceKeys.paymentRecord(workspaceId, paymentId), { consistent: true });
  return item ? (item as unknown as PaymentRecord) : undefined;
}

/**
 * Commits an invoice change and its effects as ONE TransactWrite: the invoice (conditioned on the
 * version read) and its list projections, the number counter (conditioned on the value read), the
 * payment key guard and refund counter, the ledger bookings and the webhook events the change
 * announces. Nothing is ever half-written.
 */
export async function commitInvoiceChange(workspaceId: string, current: Invoice, next: Invoice, effects: InvoiceChangeEffects = {}): Promise<void> {
  const tx = transaction().put(toInvoiceItem(workspaceId, next), versionIs(current.version, 'invoice'));
  withProjections(tx, workspaceId, current, next);
  if (effects.numbering) {
    const { previous } = effects.numbering;
    tx.update({
      key: invoiceKeys.counter(workspaceId),
      update: 'SET lastNumber = :next, #entity = :entity',
      names: entityNames(),
      values: { ':next': previous + 1, ':entity': INVOICE_COUNTER_ENTITY },
      condition: {
        expression: previous === 0 ? 'attribute_not_exists(lastNumber)' : 'lastNumber = :previous',
        ...(previous === 0 ? {} : { values: { ':previous': previous } }),
        onFailed: () => new InvoiceNumberTakenError(),
      },
    });
  }
  if (effects.paymentKey) {
    tx.put(
      { ...invoiceKeys.paymentKeyGuard(workspaceId, next.id, effects.paymentKey.idempotencyKey), ...entityAttribute(PAYMENT_KEY_GUARD_ENTITY), paymentId: effects.paymentKey.paymentId },
      { ...notExists(), onFailed: () => new IdempotencyKeyTakenError() },
    );
  }
  if (effects.paymentRecord) {
    tx.put(
      { ...invoiceKeys.paymentRecord(workspaceId, effects.paymentRecord.paymentId), ...entityAttribute(PAYMENT_RECORD_ENTITY), ...effects.paymentRecord },
      notExists(),
    );
  }
  if (effects.ledger) tx.include(effects.ledger);
  // The webhook events of the change, in its transaction: none without the change, none missing.
  tx.include(outboxEvents(workspaceId, invoiceEvents(workspaceId, current, next), new Date(next.updatedAt)));
  await tx.commit();
}

/** Saves a plain invoice change (revise, void) with its version condition and list projections. */
export async function saveInvoice(workspaceId: string, current: Invoice, next: Invoice): Promise<void> {
  await commitInvoiceChange(workspaceId, current, next);
}

/** A refund reserved against its payment, before the processor is asked: the resumable state. */
export interface RefundReservation {
  refundId: string;
  ledgerEntryId: string;
  amount: number;
  reason?: Refund['reason'];
  note?: string;
  refundedAt: string;
  /**
   * When the reconciler takes over if the request has not completed the refund (reservations written
   * before this field existed have none and are finished only by a retry of their request).
   */
  completeBy?: string;
  state: 'reserved' | 'completed';
}

/** The reservation of a refund key. Strong: a retried refund resumes from it. */
export async function getRefundReservation(workspaceId: string, paymentId: string, idempotencyKey: string): Promise<RefundReservation | undefined> {
  const item = await getItem(invoiceKeys.refundKeyGuard(workspaceId, paymentId, idempotencyKey), { consistent: true });
  return item ? (item as unknown as RefundReservation) : undefined;
}

function refundDueOf(workspaceId: string, paymentId: string, idempotencyKey: string, reservation: RefundReservation): RefundDue | undefined {
  return reservation.completeBy === undefined ? undefined : { workspaceId, paymentId, idempotencyKey, completeBy: reservation.completeBy };
}

/**
 * Phase 1 of a refund, ONE TransactWrite: the payment's `refundable` is decremented only if enough
 * remains (the cap holds under any concurrency, no read-then-write) and the idempotency key is taken
 * with the reservation. Only then is the processor asked, so a lost race never refunds real money.
 * The "refund due" item makes the reconciler finish the refund if its request does not.
 */
export async function reserveRefund(workspaceId: string, record: PaymentRecord, idempotencyKey: string, reservation: RefundReservation): Promise<void> {
  const tx = transaction()
    .update({
      key: invoiceKeys.paymentRecord(workspaceId, record.paymentId),
      update: 'SET refundable = refundable - :amount',
      values: { ':amount': reservation.amount },
      condition: { expression: 'refundable >= :amount', onFailed: () => new RefundExceedsPaymentError(), priority: 1 },
    })
    .put(
      { ...invoiceKeys.refundKeyGuard(workspaceId, record.paymentId, idempotencyKey), ...entityAttribute(REFUND_KEY_GUARD_ENTITY), ...reservation },
      // A taken key explains a failed decrement too (the first request already reserved): it wins.
      { ...notExists(), onFailed: () => new IdempotencyKeyTakenError(), priority: 0 },
    );
  const due = refundDueOf(workspaceId, record.paymentId, idempotencyKey, reservation);
  if (due) tx.put(toRefundDueItem(due));
  // A rerun resumes a reservation found by its key; the request counts as applied once completed.
  await tx.resumableStep().commit();
}

export interface RefundCompletion {
  record: PaymentRecord;
  refund: Refund;
  reservation: RefundReservation;
  updatedAt: string;
  ledger: Transaction;
}

/**
 * Phase 2, ONE TransactWrite: the reservation becomes `completed` (only once, whoever resumes it),
 * the refund is appended to its payment inside the invoice, the ledger is booked and the
 * `refund.created` webhook event is written. The processor has refunded by now, so a transient
 * failure is sent again (same token) instead of giving up.
 */
export async function completeRefund(workspaceId: string, { record, refund, reservation, updatedAt, ledger }: RefundCompletion): Promise<void> {
  const tx = transaction()
    .update({
      key: invoiceKeys.refundKeyGuard(workspaceId, record.paymentId, refund.idempotencyKey),
      update: 'SET #state = :completed',
      names: { '#state': 'state' },
      values: { ':completed': 'completed', ':reserved': 'reserved' },
      condition: { expression: '#state = :reserved', onFailed: () => new IdempotencyKeyTakenError() },
    })
    .update({
      key: invoiceKeys.invoice(workspaceId, record.invoiceId),
      // The payments list is append-only, so the index recorded at payment time stays valid.
      update: `SET payments[${record.index}].refunds = list_append(payments[${record.index}].refunds, :refund), updatedAt = :updatedAt ADD version :one`,
      values: { ':refund': [refund], ':updatedAt': updatedAt, ':one': 1 },
      condition: { ...exists(), onFailed: () => new ConflictError('The invoice disappeared while refunding.') },
    })
    .include(ledger)
    .include(outboxEvents(workspaceId, [{ type: 'refund.created', object: refund }], new Date(updatedAt)));
  const due = refundDueOf(workspaceId, record.paymentId, refund.idempotencyKey, reservation);
  if (due) tx.delete(invoiceKeys.refundDue(due));
  await tx.commit({ resendOnTransientFailure: true });
}

/**
 * Undoes a reservation the processor refused for good, ONE TransactWrite: the amount becomes
 * refundable again and the key is free (a retry reserves anew). Only while still `reserved`.
 */
export async function releaseRefund(workspaceId: string, record: PaymentRecord, idempotencyKey: string, reservation: RefundReservation): Promise<void> {
  const tx = transaction()
    .delete(invoiceKeys.refundKeyGuard(workspaceId, record.paymentId, idempotencyKey), {
      expression: '#state = :reserved',
      names: { '#state': 'state' },
      values: { ':reserved': 'reserved' },
      onFailed: () => new IdempotencyKeyTakenError(),
    })
    .update({
      key: invoiceKeys.paymentRecord(workspaceId, record.paymentId),
      update: 'SET refundable = refundable + :amount',
      values: { ':amount': reservation.amount },
    });
  const due = refundDueOf(workspaceId, record.paymentId, idempotencyKey, reservation);
  if (due) tx.delete(invoiceKeys.refundDue(due));
  await tx.commit();
}

/** The reserved refunds whose `completeBy` has passed, oldest first (one Query). */
export async function listRefundsDue(now: Date, limit: number): Promise<RefundDue[]> {
  const items = await queryFirst({ partition: invoiceKeys.refundsDuePartition, range: { lte: invoiceKeys.refundsDueUntil(now.toISOString()) } }, limit);
  return items.map(fromRefundDueItem);
}

/** Drops a "refund due" item whose reservation is already finished (or gone). */
export async function dropRefundDue(due: RefundDue): Promise<void> {
  await deleteItem(invoiceKeys.refundDue(due));
}
