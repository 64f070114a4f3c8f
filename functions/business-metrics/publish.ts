import { MetricUnit, type Metrics } from '@aws-lambda-powertools/metrics';
import type { BusinessCounts } from '../../shared/observability/business-metrics.js';

/**
 * Writes one batch's counts as CloudWatch embedded-metric-format lines (Powertools Metrics): the
 * counters in one blob, each amount in a blob of its own with its `currency` dimension. Nothing is
 * written for a batch that counted nothing (no empty-metrics warning either).
 */
export function publishBusinessMetrics(metrics: Metrics, counts: BusinessCounts): void {
  for (const [metric, byCurrency] of counts.amounts) {
    for (const [currency, amount] of byCurrency) {
      const single = metrics.singleMetric();
      single.addDimension('currency', currency);
      // Minor units (cents): an integer count of the currency's smallest unit, never a float.
      single.addMetric(metric, MetricUnit.Count, amount);
    }
  }
  if (counts.counts.size === 0) return;
  for (const [metric, value] of counts.counts) metrics.addMetric(metric, MetricUnit.Count, value);
  metrics.publishStoredMetrics();
}
