import { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { FUNCTION_TIMEOUT_MS } from '../shared/db/time-budget.js';
import { BoxofficeFunction } from './boxoffice-function.js';
import { handlerEntry } from './paths.js';

export interface EventEndSweeperProps {
  readonly table: ITableV2;
  readonly idempotencyTable: ITableV2;
}

/**
 * The end sweeper of the partner listing (README "Access patterns: partner listing"): a function run
 * every minute that moves ended events from `upcoming` to `past`. It reads the end schedule and the
 * events (table only, no index) and writes their listing items.
 */
export class EventEndSweeper extends Construct {
  readonly function: BoxofficeFunction;

  constructor(scope: Construct, id: string, props: EventEndSweeperProps) {
    super(scope, id);
    this.function = new BoxofficeFunction(scope, 'EventEndSweeperFunction', {
      entry: handlerEntry('event-end-sweeper'),
      description: 'Boxoffice partner listing: moves events that ended from upcoming to past, every minute',
      memorySize: 256,
      timeout: Duration.millis(FUNCTION_TIMEOUT_MS.sweeper),
      environment: { POWERTOOLS_SERVICE_NAME: 'boxoffice-event-end-sweeper' },
    });
    this.function.bindTable(props.table, 'RW');
    this.function.denyOperatorItems(props.table, []);
    // Never used here; set so that the runtime config holds the real name, not its local fallback.
    this.function.addEnvironment('IDEMPOTENCY_TABLE_NAME', props.idempotencyTable.tableName);
    new Rule(this, 'EveryMinute', {
      description: 'Runs the Boxoffice event end sweeper',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(this.function, { retryAttempts: 0 })],
    });
  }
}
