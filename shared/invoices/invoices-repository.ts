import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '../db/batch-get.js';
import { db, tableName } from '../db/client.js';
import { queryPage } from '../db/query.js';
import { TABLE_KEYS } from '../db/table-design.js';
import { ConflictError } from '../errors.js';
import type { Invoice, InvoiceListQuery, InvoiceStatus, Refund } from '../http/routes/invoices.js';
import { TransactionRejectedError, transact, type TransactItem } from '../ledger/transactions.js';
import {
  INVOICE_COUNTER_ENTITY, PAYMENT_KEY_GUARD_ENTITY, PAYMENT_RECORD_ENTITY, REFUND_KEY_GUARD_ENTITY,
  fromInvoiceItem, invoiceKeys, projectionChanges, toInvoiceItem, type PaymentRecord,
} from './invoice-entity.js';

/** The invoice changed since it was read (version moved): read again and redo the decision. */
export class StaleInvoiceError extends Error {
  constructor() {
    super('The invoice changed since it was read.');
    this.name = 'StaleInvoiceError';
  }
}

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
  /** Ledger bookings (payments). */
  ledgerItems?: TransactItem[];
}

/** The list projections that follow a change from `before` to `after`, as transaction items. */
function projectionItems(workspaceId: string, before: Invoice | undefined, after: Invoice): TransactItem[] {
  const { puts, deletes } = projectionChanges(workspaceId, before, after);
  return [
    ...deletes.map((Key): TransactItem => ({ Delete: { TableName: tableName(), Key } })),
    ...puts.map((Item): TransactItem => ({ Put: { TableName: tableName(), Item } })),
  ];
}

/** Creates the invoice and its list projections in one transaction. */
export async function insertInvoice(workspaceId: string, invoice: Invoice): Promise<void> {
  await transact([
    { Put: { TableName: tableName(), Item: toInvoiceItem(workspaceId, invoice), ConditionExpression: 'attribute_not_exists(PK)' } },
    ...projectionItems(workspaceId, undefined, invoice),
  ]);
}

export async function getInvoice(workspaceId: string, id: string): Promise<Invoice | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: invoiceKeys.invoice(workspaceId, id), ConsistentRead: true }));
  return Item ? fromInvoiceItem(Item) : undefined;
}

/**
 * One page of the workspace's invoices in creation order (ids are time-ordered). Unfiltered: a Query
 * on the invoice partition. With `status` or `customerId`: a Query on that filter's projection
 * partition (with `status` as a filter inside one customer's invoices when both are given), then one
 * BatchGet of the page. The cost follows the page depth, never the workspace's other invoices.
 */
export async function listInvoices(workspaceId: string, query: InvoiceListQuery): Promise<{ items: Invoice[]; hasMore: boolean }> {
  const order = { ScanIndexForward: query.direction === 'asc' };
  if (query.status === undefined && query.customerId === undefined) {
    const { items, hasMore } = await queryPage({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': invoiceKeys.invoicePartition(workspaceId) },
      ...order,
    }, query.page, query.limit);
    return { items: items.map(fromInvoiceItem), hasMore };
  }
  const partition = query.customerId !== undefined
    ? invoiceKeys.byCustomerPartition(workspaceId, query.customerId)
    : invoiceKeys.byStatusPartition(workspaceId, query.status as InvoiceStatus);
  const statusFilter = query.customerId !== undefined && query.status !== undefined;
  const { items: refs, hasMore } = await queryPage({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': partition, ...(statusFilter ? { ':status': query.status } : {}) },
    ...(statusFilter ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } } : {}),
    ...order,
  }, query.page, query.limit);
  const ids = refs.map((ref) => ref.invoiceId as string);
  const byId = new Map((await batchGetItems(ids.map((id) => invoiceKeys.invoice(workspaceId, id))))
    .map((item) => [item.SK as string, fromInvoiceItem(item)]));
  // An invoice that changed status between the two reads no longer matches: leave it out.
  const items = ids.flatMap((id) => byId.get(id) ?? [])
    .filter((invoice) => (query.status === undefined || invoice.status === query.status) && (query.customerId === undefined || invoice.customerId === query.customerId));
  return { items, hasMore };
}

/** The last invoice number handed out in the workspace (0 before the first finalize). */
export async function readInvoiceCounter(workspaceId: string): Promise<number> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: invoiceKeys.counter(workspaceId), ConsistentRead: true }));
  return typeof Item?.lastNumber === 'number' ? Item.lastNumber : 0;
}

export async function getPaymentRecord(workspaceId: string, paymentId: string): Promise<PaymentRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: invoiceKeys.paymentRecord(workspaceId, paymentId), ConsistentRead: true }));
  return Item ? (Item as unknown as PaymentRecord) : undefined;
}

/** Saves a new invoice version, conditioned on the stored version being the one the change was based on. */
function invoicePut(workspaceId: string, next: Invoice, expectedVersion: number): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: toInvoiceItem(workspaceId, next),
      ConditionExpression: 'version = :expected',
      ExpressionAttributeValues: { ':expected': expectedVersion },
    },
  };
}

/**
 * Commits an invoice change and its effects as ONE TransactWrite: the invoice (conditioned on the
 * version read) and its list projections, the number counter (conditioned on the value read), the payment key guard and
 * refund counter, and the ledger bookings. Nothing is ever half-written.
 */
export async function commitInvoiceChange(workspaceId: string, current: Invoice, next: Invoice, effects: InvoiceChangeEffects = {}): Promise<void> {
  const items: TransactItem[] = [invoicePut(workspaceId, next, current.version), ...projectionItems(workspaceId, current, next)];
  let counterIndex = -1;
  let guardIndex = -1;
  if (effects.numbering) {
    const { previous } = effects.numbering;
    counterIndex = items.length;
    items.push({
      Update: {
        TableName: tableName(),
        Key: invoiceKeys.counter(workspaceId),
        UpdateExpression: 'SET lastNumber = :next, #entity = :entity',
        ConditionExpression: previous === 0 ? 'attribute_not_exists(lastNumber)' : 'lastNumber = :previous',
        ExpressionAttributeNames: { '#entity': TABLE_KEYS.entityType },
        ExpressionAttributeValues: { ':next': previous + 1, ':entity': INVOICE_COUNTER_ENTITY, ...(previous === 0 ? {} : { ':previous': previous }) },
      },
    });
  }
  if (effects.paymentKey) {
    guardIndex = items.length;
    items.push({
      Put: {
        TableName: tableName(),
        Item: {
          ...invoiceKeys.paymentKeyGuard(workspaceId, next.id, effects.paymentKey.idempotencyKey),
          [TABLE_KEYS.entityType]: PAYMENT_KEY_GUARD_ENTITY,
          paymentId: effects.paymentKey.paymentId,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    });
  }
  if (effects.paymentRecord) {
    items.push({
      Put: {
        TableName: tableName(),
        Item: { ...invoiceKeys.paymentRecord(workspaceId, effects.paymentRecord.paymentId), [TABLE_KEYS.entityType]: PAYMENT_RECORD_ENTITY, ...effects.paymentRecord },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    });
  }
  items.push(...(effects.ledgerItems ?? []));
  try {
    await transact(items);
  } catch (error) {
    if (!(error instanceof TransactionRejectedError)) throw error;
    if (error.failed(0)) throw new StaleInvoiceError();
    if (counterIndex >= 0 && error.failed(counterIndex)) throw new InvoiceNumberTakenError();
    if (guardIndex >= 0 && error.failed(guardIndex)) throw new IdempotencyKeyTakenError();
    throw error;
  }
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
  state: 'reserved' | 'completed';
}

export async function getRefundReservation(workspaceId: string, paymentId: string, idempotencyKey: string): Promise<RefundReservation | undefined> {
  const { Item } = await db.send(new GetCommand({
    TableName: tableName(), Key: invoiceKeys.refundKeyGuard(workspaceId, paymentId, idempotencyKey), ConsistentRead: true,
  }));
  return Item ? (Item as unknown as RefundReservation) : undefined;
}

/**
 * Phase 1 of a refund, ONE TransactWrite: the payment's `refundable` is decremented only if enough
 * remains (the cap holds under any concurrency, no read-then-write) and the idempotency key is taken
 * with the reservation. Only then is the processor asked, so a lost race never refunds real money.
 */
export async function reserveRefund(workspaceId: string, record: PaymentRecord, idempotencyKey: string, reservation: RefundReservation): Promise<void> {
  try {
    await transact([
      {
        Update: {
          TableName: tableName(),
          Key: invoiceKeys.paymentRecord(workspaceId, record.paymentId),
          UpdateExpression: 'SET refundable = refundable - :amount',
          ConditionExpression: 'refundable >= :amount',
          ExpressionAttributeValues: { ':amount': reservation.amount },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: { ...invoiceKeys.refundKeyGuard(workspaceId, record.paymentId, idempotencyKey), [TABLE_KEYS.entityType]: REFUND_KEY_GUARD_ENTITY, ...reservation },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
  } catch (error) {
    if (!(error instanceof TransactionRejectedError)) throw error;
    if (error.failed(1)) throw new IdempotencyKeyTakenError();
    if (error.failed(0)) throw new RefundExceedsPaymentError();
    throw error;
  }
}

export interface RefundCompletion {
  record: PaymentRecord;
  refund: Refund;
  updatedAt: string;
  ledgerItems: TransactItem[];
}

/**
 * Phase 2, ONE TransactWrite: the reservation becomes `completed` (only once, whoever resumes it),
 * the refund is appended to its payment inside the invoice and the ledger is booked.
 */
export async function completeRefund(workspaceId: string, { record, refund, updatedAt, ledgerItems }: RefundCompletion): Promise<void> {
  try {
    await transact([
      {
        Update: {
          TableName: tableName(),
          Key: invoiceKeys.refundKeyGuard(workspaceId, record.paymentId, refund.idempotencyKey),
          UpdateExpression: 'SET #state = :completed',
          ConditionExpression: '#state = :reserved',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':completed': 'completed', ':reserved': 'reserved' },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: invoiceKeys.invoice(workspaceId, record.invoiceId),
          // The payments list is append-only, so the index recorded at payment time stays valid.
          UpdateExpression: `SET payments[${record.index}].refunds = list_append(payments[${record.index}].refunds, :refund), updatedAt = :updatedAt ADD version :one`,
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':refund': [refund], ':updatedAt': updatedAt, ':one': 1 },
        },
      },
      ...ledgerItems,
    ]);
  } catch (error) {
    if (!(error instanceof TransactionRejectedError)) throw error;
    if (error.failed(0)) throw new IdempotencyKeyTakenError();
    if (error.failed(1)) throw new ConflictError('The invoice disappeared while refunding.');
    throw error;
  }
}
