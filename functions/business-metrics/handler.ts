import type { DynamoDBStreamEvent } from 'aws-lambda';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { countBusinessRecords } from '../../shared/observability/business-metrics.js';
import { publishBusinessMetrics } from './publish.js';
import { traced } from '../../shared/observability/tracing.js';

/** Namespace (`POWERTOOLS_METRICS_NAMESPACE`, one per stage) and `service` dimension come from the environment CDK sets. */
const metrics = new Metrics();

/**
 * DynamoDB Streams (filtered to outbox events, ledger entries and finished deliveries) -> business
 * metrics. It writes no data and calls no AWS API: the metrics are log lines CloudWatch extracts.
 */
async function publish(event: DynamoDBStreamEvent): Promise<void> {
  publishBusinessMetrics(metrics, countBusinessRecords(event.Records));
}

export const handler = traced(publish);
