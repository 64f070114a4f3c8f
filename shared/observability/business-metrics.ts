import type { DynamoDBRecord } from 'aws-lambda';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { entityOf, TABLE_KEYS } from '../db/table-design.js';
import { fromLedgerItem, LEDGER_ENTRY_ENTITY } from '../ledger/ledger-model.js';
import { fromDeliveryItem, WEBHOOK_DELIVERY_ENTITY, WEBHOOK_EVENT_ENTITY, type WebhookEventType } from '../webhooks/webhook-model.js';

/**
 * Business metrics, derived from what committed: the table's stream carries every outbox event (one per
 * finalized invoice, refund, submission, ...), every ledger entry (one per payment and refund, with its
 * amount) and every delivery that reached its end. Counting there rather than in the request handlers
 * means a metric moves only when the change it counts is in the table (a refused or rolled-back request
 * counts nothing), no API function carries a metrics library, and the counts cost no request time.
 * Streams deliver at least once: a record read twice (a retried batch) is counted twice, which the
 * dashboard's trends tolerate; the table, not the metrics, is the record of money.
 */

/** Counted per outbox event type (`API.md` webhooks: one event per change). */
export const EVENT_METRICS = {
  'invoice.finalized': 'InvoicesFinalized',
  'invoice.paid': 'InvoicesPaid',
  'invoice.payment_failed': 'PaymentsFailed',
  'invoice.voided': 'InvoicesVoided',
  'refund.created': 'Refunds',
  'payout.created': 'Payouts',
  'form_response.created': 'FormSubmissions',
  'contact.created': 'ContactsCreated',
  'event.published': 'EventsPublished',
} as const satisfies Record<WebhookEventType, string>;

/** Counted from ledger entries: every recorded payment, and the money moved (minor units, per currency). */
export const LEDGER_METRICS = { payments: 'Payments', paymentGross: 'PaymentGross', refunded: 'RefundedAmount' } as const;

/** Counted from deliveries that reached their end (succeeded, or failed after every attempt). */
export const DELIVERY_METRICS = { succeeded: 'WebhookDeliveriesSucceeded', failed: 'WebhookDeliveriesFailed' } as const;

/** Every metric name, for the dashboard and its test. */
export const BUSINESS_METRIC_NAMES = [...Object.values(EVENT_METRICS), ...Object.values(LEDGER_METRICS), ...Object.values(DELIVERY_METRICS)] as const;

/** The metrics carrying an amount, with a `currency` dimension (the others have none). */
export const AMOUNT_METRICS = [LEDGER_METRICS.paymentGross, LEDGER_METRICS.refunded] as const;

const TERMINAL_DELIVERY_STATUSES = ['succeeded', 'failed'] as const;

/**
 * The event-source mapping filters (Lambda filter syntax, OR'ed): the function is invoked for these
 * records only. Amounts are never a dimension of anything but the currency (no per-workspace metrics:
 * CloudWatch bills per dimension combination).
 */
export function businessMetricsFilterPatterns(): Record<string, unknown>[] {
  const entity = TABLE_KEYS.entityType;
  return [
    { eventName: ['INSERT'], dynamodb: { NewImage: { [entity]: { S: [WEBHOOK_EVENT_ENTITY, LEDGER_ENTRY_ENTITY] } } } },
    { eventName: ['MODIFY'], dynamodb: { NewImage: { [entity]: { S: [WEBHOOK_DELIVERY_ENTITY] }, status: { S: [...TERMINAL_DELIVERY_STATUSES] } } } },
  ];
}

/** The same filters applied to one record (for tests and any in-process stream reader). */
export function matchesBusinessMetricsFilter(record: DynamoDBRecord): boolean {
  const image = record.dynamodb?.NewImage;
  const entity = image?.[TABLE_KEYS.entityType]?.S;
  if (record.eventName === 'INSERT') return entity === WEBHOOK_EVENT_ENTITY || entity === LEDGER_ENTRY_ENTITY;
  const status = image?.status?.S;
  return record.eventName === 'MODIFY' && entity === WEBHOOK_DELIVERY_ENTITY && (TERMINAL_DELIVERY_STATUSES as readonly string[]).includes(status ?? '');
}

/** One batch's counts: plain counters, and amounts per (metric, currency). */
export interface BusinessCounts {
  counts: Map<string, number>;
  amounts: Map<string, Map<string, number>>;
}

function add(map: Map<string, number>, key: string, value: number): void {
  map.set(key, (map.get(key) ?? 0) + value);
}

function addAmount(counts: BusinessCounts, metric: string, currency: string, value: number): void {
  if (value === 0) return;
  let byCurrency = counts.amounts.get(metric);
  if (!byCurrency) {
    byCurrency = new Map();
    counts.amounts.set(metric, byCurrency);
  }
  add(byCurrency, currency, value);
}

function isEventType(type: unknown): type is WebhookEventType {
  return typeof type === 'string' && Object.hasOwn(EVENT_METRICS, type);
}

/** What a batch of stream records adds to the business metrics. Records the filters let through only. */
export function countBusinessRecords(records: readonly DynamoDBRecord[]): BusinessCounts {
  const result: BusinessCounts = { counts: new Map(), amounts: new Map() };
  for (const record of records) {
    if (!matchesBusinessMetricsFilter(record)) continue;
    const item = unmarshall(record.dynamodb?.NewImage as Record<string, AttributeValue>);
    const entity = entityOf(item);
    if (entity === WEBHOOK_EVENT_ENTITY) {
      if (isEventType(item.type)) add(result.counts, EVENT_METRICS[item.type], 1);
    } else if (entity === LEDGER_ENTRY_ENTITY) {
      const entry = fromLedgerItem(item);
      if (entry.type === 'payment') {
        add(result.counts, LEDGER_METRICS.payments, 1);
        addAmount(result, LEDGER_METRICS.paymentGross, entry.currency, entry.gross);
      } else if (entry.type === 'refund') {
        addAmount(result, LEDGER_METRICS.refunded, entry.currency, entry.refundedAmount);
      }
    } else if (entity === WEBHOOK_DELIVERY_ENTITY) {
      const { status } = fromDeliveryItem(item);
      if (status === 'succeeded') add(result.counts, DELIVERY_METRICS.succeeded, 1);
      else if (status === 'failed') add(result.counts, DELIVERY_METRICS.failed, 1);
    }
  }
  return result;
}
