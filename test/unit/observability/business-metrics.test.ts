import type { DynamoDBRecord } from 'aws-lambda';
import { marshall } from '@aws-sdk/util-dynamodb';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BUSINESS_METRIC_NAMES, EVENT_METRICS, businessMetricsFilterPatterns, countBusinessRecords, matchesBusinessMetricsFilter,
} from '../../../shared/observability/business-metrics.js';
import { toLedgerItem, type LedgerEntry } from '../../../shared/ledger/ledger-model.js';
import { WEBHOOK_EVENT_TYPES } from '../../../shared/webhooks/webhook-model.js';
import { publishBusinessMetrics } from '../../../functions/business-metrics/publish.js';

type EventName = 'INSERT' | 'MODIFY' | 'REMOVE';

const record = (eventName: EventName, item: Record<string, unknown>): DynamoDBRecord => ({
  eventName,
  dynamodb: { NewImage: marshall(item, { removeUndefinedValues: true }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'] },
});

const outboxEvent = (type: string) => record('INSERT', { PK: 'WS#w1#WEBHOOKEVENTS', SK: `EVENT#${type}`, entity: 'WebhookEvent', id: 'evt', type, workspaceId: 'w1' });

function ledgerEntry(overrides: Partial<LedgerEntry>): Record<string, unknown> {
  const entry: LedgerEntry = {
    id: 'l1', type: 'payment', currency: 'USD', gross: 0, platformFee: 0, processorFee: 0, fees: 0, refundedAmount: 0, paidOut: 0, net: 0,
    availableAt: '2026-11-24T00:00:00.000Z', createdAt: '2026-11-24T00:00:00.000Z', ...overrides,
  };
  return toLedgerItem('w1', entry);
}

const delivery = (eventName: EventName, status: string) => record(eventName, { PK: 'WS#w1#DELIVERIES', SK: 'D#1', entity: 'WebhookDelivery', id: 'd1', status, attempts: 1 });

/** Lambda's filter semantics for the patterns used here: every key must match, arrays list accepted values. */
function matchesPattern(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) return pattern.includes(value);
  if (pattern && typeof pattern === 'object') {
    return Object.entries(pattern).every(([key, inner]) => value !== null && typeof value === 'object' && matchesPattern(inner, (value as Record<string, unknown>)[key]));
  }
  return false;
}

const sample: DynamoDBRecord[] = [
  ...WEBHOOK_EVENT_TYPES.map(outboxEvent),
  record('INSERT', ledgerEntry({ type: 'payment', gross: 5_000 })),
  record('INSERT', ledgerEntry({ type: 'refund', refundedAmount: 1_250 })),
  record('INSERT', ledgerEntry({ type: 'payout', paidOut: 3_000 })),
  delivery('INSERT', 'pending'),
  delivery('MODIFY', 'pending'),
  delivery('MODIFY', 'succeeded'),
  delivery('MODIFY', 'failed'),
  record('INSERT', { PK: 'WS#w1#INVOICE#1', SK: 'INVOICE', entity: 'Invoice', id: 'i1', status: 'paid' }),
  record('MODIFY', { PK: 'WS#w1#INVOICE#1', SK: 'INVOICE', entity: 'Invoice', id: 'i1', status: 'succeeded' }),
  { eventName: 'REMOVE', dynamodb: {} },
];

describe('business metrics from the table stream', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('lets through the same records as the deployed event-source filters: outbox events, ledger entries, finished deliveries', () => {
    // Act
    const inProcess = sample.map(matchesBusinessMetricsFilter);
    const deployed = sample.map((one) => businessMetricsFilterPatterns().some((pattern) => matchesPattern(pattern, one)));

    // Assess
    expect(inProcess).toEqual(deployed);
    expect(inProcess.filter(Boolean)).toHaveLength(WEBHOOK_EVENT_TYPES.length + 3 + 2);
  });

  it('counts one per outbox event type, payments and their gross, refunded amounts, and deliveries that finished', () => {
    // Act
    const { counts, amounts } = countBusinessRecords(sample);

    // Assess
    expect(Object.fromEntries(counts)).toEqual({
      ...Object.fromEntries(Object.values(EVENT_METRICS).map((name) => [name, 1])),
      Payments: 1,
      WebhookDeliveriesSucceeded: 1,
      WebhookDeliveriesFailed: 1,
    });
    expect(Object.fromEntries([...amounts].map(([name, byCurrency]) => [name, Object.fromEntries(byCurrency)]))).toEqual({
      PaymentGross: { USD: 5_000 },
      RefundedAmount: { USD: 1_250 },
    });
  });

  it('sums amounts per currency in integer minor units', () => {
    // Act
    const { amounts } = countBusinessRecords([
      record('INSERT', ledgerEntry({ id: 'a', gross: 1_999 })),
      record('INSERT', ledgerEntry({ id: 'b', gross: 1 })),
      record('INSERT', ledgerEntry({ id: 'c', currency: 'CAD', gross: 700 })),
    ]);

    // Assess
    expect(Object.fromEntries(amounts.get('PaymentGross') ?? [])).toEqual({ USD: 2_000, CAD: 700 });
  });

  it('writes the counters as one EMF line and each amount as its own line with a currency dimension', () => {
    // Prepare
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const metrics = new Metrics({ namespace: 'Boxoffice/test', serviceName: 'boxoffice-business-metrics' });

    // Act
    publishBusinessMetrics(metrics, countBusinessRecords(sample));

    // Assess
    const blobs = lines.map((line) => JSON.parse(line) as { _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] } } & Record<string, unknown>);
    const names = blobs.flatMap((blob) => blob._aws.CloudWatchMetrics.flatMap((directive) => directive.Metrics.map((metric) => metric.Name)));
    expect(names.sort()).toEqual([...BUSINESS_METRIC_NAMES].sort());
    const gross = blobs.find((blob) => 'PaymentGross' in blob);
    expect(gross).toMatchObject({ PaymentGross: 5_000, currency: 'USD', service: 'boxoffice-business-metrics' });
    expect(gross?._aws.CloudWatchMetrics[0]?.Dimensions[0]).toEqual(expect.arrayContaining(['service', 'currency']));
    expect(blobs.every((blob) => blob._aws.CloudWatchMetrics[0]?.Namespace === 'Boxoffice/test')).toBe(true);
  });

  it('writes nothing for a batch that counted nothing', () => {
    // Prepare
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const metrics = new Metrics({ namespace: 'Boxoffice/test', serviceName: 'boxoffice-business-metrics' });

    // Act
    publishBusinessMetrics(metrics, countBusinessRecords([delivery('MODIFY', 'pending')]));

    // Assess
    expect(write).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });
});
