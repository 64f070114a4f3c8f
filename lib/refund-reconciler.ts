import { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { FUNCTION_TIMEOUT_MS } from '../shared/db/time-budget.js';
import { BoxofficeFunction } from './boxoffice-function.js';
import { handlerEntry } from './paths.js';

export interface RefundReconcilerProps {
  readonly table: ITableV2;
  /** Indexes the function may query (the ledger's event index: completing a refund books the ledger). */
  readonly indexNames: readonly string[];
  /** @default one minute */
  readonly every?: Duration;
}

/**
 * The refund reconciler: an EventBridge schedule runs a function every minute that completes (or,
 * when the processor declines for good, releases) the refunds whose request reserved the amount but
 * never finished (README "Reliability"). EventBridge retries a failed invocation; a refund that still
 * fails stays due and is tried again on the next run.
 */
export class RefundReconciler extends Construct {
  readonly function: BoxofficeFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: RefundReconcilerProps) {
    super(scope, id);
    this.function = new BoxofficeFunction(this, 'Function', {
      entry: handlerEntry('refund-reconciler'),
      description: 'Boxoffice refund reconciler: completes or releases reserved refunds whose request never finished',
      timeout: Duration.millis(FUNCTION_TIMEOUT_MS.reconciler),
      environment: { POWERTOOLS_SERVICE_NAME: 'boxoffice-refund-reconciler' },
    });
    // Reads reservations, payments and invoices; writes the completion (invoice, ledger, balance).
    this.function.bindTable(props.table, 'RW', { indexNames: props.indexNames });
    this.function.denyOperatorItems(props.table, props.indexNames);
    this.rule = new Rule(this, 'Schedule', {
      description: 'Runs the refund reconciler',
      schedule: Schedule.rate(props.every ?? Duration.minutes(1)),
      targets: [new LambdaFunction(this.function, { retryAttempts: 2, maxEventAge: Duration.minutes(5) })],
    });
  }
}
