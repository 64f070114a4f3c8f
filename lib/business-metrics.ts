import { Duration } from 'aws-cdk-lib';
import { MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import {
  AMOUNT_METRICS, DELIVERY_METRICS, EVENT_METRICS, LEDGER_METRICS, businessMetricsFilterPatterns,
} from '../shared/observability/business-metrics.js';
import { FUNCTION_TIMEOUT_MS } from '../shared/db/time-budget.js';
import { BoxofficeFunction } from './boxoffice-function.js';
import { handlerEntry } from './paths.js';

export const BUSINESS_METRICS_FUNCTION = 'business-metrics';
const SERVICE = `boxoffice-${BUSINESS_METRICS_FUNCTION}`;

export interface BusinessMetricsProps {
  readonly stage: string;
  /** The single table; its stream (NEW_IMAGE) carries outbox events, ledger entries and deliveries. */
  readonly table: ITableV2;
}

/** A dashboard graph: its title and the metrics drawn on it. */
export interface BusinessMetricGroup {
  readonly title: string;
  readonly metrics: (Metric | MathExpression)[];
}

/**
 * Business metrics from the table's stream (shared/observability/business-metrics.ts): a function the
 * stream invokes only for outbox events, ledger entries and finished deliveries (event-source filters,
 * so the table's other writes cost nothing), writing CloudWatch embedded-metric-format lines through
 * Powertools Metrics into the stage's namespace. A second consumer of the stream beside the webhook
 * dispatcher (DynamoDB Streams serves two per shard without throttling).
 */
export class BusinessMetrics extends Construct {
  readonly function: BoxofficeFunction;
  readonly namespace: string;

  constructor(scope: Construct, id: string, props: BusinessMetricsProps) {
    super(scope, id);
    this.namespace = `Boxoffice/${props.stage}`;
    this.function = new BoxofficeFunction(this, 'Function', {
      entry: handlerEntry(BUSINESS_METRICS_FUNCTION),
      description: 'Boxoffice business metrics: counts committed invoices, payments, refunds, submissions and deliveries from the table stream',
      memorySize: 256,
      timeout: Duration.millis(FUNCTION_TIMEOUT_MS.businessMetrics),
      environment: { POWERTOOLS_SERVICE_NAME: SERVICE, POWERTOOLS_METRICS_NAMESPACE: this.namespace },
    });
    // Reads the stream only (the event source grants that); no table item access at all.
    this.function.addEventSource(new DynamoEventSource(props.table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: 500,
      // Fewer, larger batches: a metric a few seconds late costs nothing, an invocation per write does.
      maxBatchingWindow: Duration.seconds(10),
      filters: businessMetricsFilterPatterns().map((pattern) => FilterCriteria.filter(pattern)),
      // A batch that keeps failing is split until the failing record is alone, so it drops that record's
      // counts only, not the 499 others' (counting is pure: a record fails only if its image is malformed).
      bisectBatchOnError: true,
      retryAttempts: 2,
      maxRecordAge: Duration.hours(1),
    }));
  }

  private count(name: string): Metric {
    return new Metric({ namespace: this.namespace, metricName: name, dimensionsMap: { service: SERVICE }, statistic: 'Sum', period: Duration.minutes(5), label: name });
  }

  /** Amounts are per currency: one SEARCH draws a line for every currency that has data. */
  private amounts(name: (typeof AMOUNT_METRICS)[number]): MathExpression {
    return new MathExpression({
      expression: `SEARCH('{${this.namespace},currency,service} MetricName="${name}" service="${SERVICE}"', 'Sum', 300)`,
      usingMetrics: {},
      label: `${name} (minor units)`,
      period: Duration.minutes(5),
    });
  }

  /** What the dashboard draws: sales, money moved, the CRM and forms, webhook deliveries. */
  dashboardGroups(): BusinessMetricGroup[] {
    return [
      {
        title: 'Invoices and payments',
        metrics: [EVENT_METRICS['invoice.finalized'], EVENT_METRICS['invoice.paid'], LEDGER_METRICS.payments, EVENT_METRICS['invoice.payment_failed'], EVENT_METRICS['refund.created'], EVENT_METRICS['invoice.voided'], EVENT_METRICS['payout.created']].map((name) => this.count(name)),
      },
      { title: 'Money in and out (minor units, per currency)', metrics: AMOUNT_METRICS.map((name) => this.amounts(name)) },
      { title: 'Forms, contacts and events', metrics: [EVENT_METRICS['form_response.created'], EVENT_METRICS['contact.created'], EVENT_METRICS['event.published']].map((name) => this.count(name)) },
      { title: 'Webhook deliveries', metrics: [DELIVERY_METRICS.succeeded, DELIVERY_METRICS.failed].map((name) => this.count(name)) },
    ];
  }
}
