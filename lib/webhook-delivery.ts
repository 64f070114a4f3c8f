import { Duration, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { FUNCTION_TIMEOUT_MS } from '../shared/db/time-budget.js';
import { dispatchFilterPattern } from '../shared/webhooks/dispatch-filter.js';
import { BoxofficeFunction } from './boxoffice-function.js';
import { deploymentEnvironment, type DeploymentSettings } from './function-environment.js';
import { WEBHOOK_SECRETS_MODULE, webhookSecretsStatement } from './group-functions.js';
import { handlerEntry } from './paths.js';
import { reachableModules } from './source-graph.js';

/** The delivery functions (entries `functions/<name>/handler.ts`), besides the API's group functions. */
export const WEBHOOK_FUNCTIONS = ['webhook-dispatcher', 'webhook-sender'] as const;

/**
 * Receives of one message before SQS moves it to the DLQ itself: 8 attempts, plus room for crashed
 * ones. (A delivery that fails all 8 attempts is sent to the DLQ by the sender.)
 */
export const MAX_RECEIVE_COUNT = 12;
const SENDER_TIMEOUT = Duration.millis(FUNCTION_TIMEOUT_MS.webhookSender);

export interface WebhookDeliveryProps {
  /** The single table; its stream (NEW_IMAGE) carries outbox events and new deliveries. */
  readonly table: ITableV2;
  readonly webhookSecretsKey: IKey;
  /** What functions get from the deployment, by the modules they load (function-environment.ts). */
  readonly settings: DeploymentSettings;
}

/**
 * Webhook delivery with AWS's own engines: DynamoDB Streams (filtered to outbox events and new
 * deliveries) -> the dispatcher -> an SQS queue (SSE, TLS only) -> the sender, which retries through the
 * message's visibility timeout and sends a delivery that failed all 8 attempts to the DLQ (as SQS does
 * with a message received 12 times: crashes); the DLQ's alarm fires. Records the dispatcher cannot process after
 * 10 tries (or a day) go to a second dead-letter queue. Each function gets exactly the table actions,
 * queue actions and KMS action its code uses.
 */
export class WebhookDelivery extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  /** Stream records the dispatcher gave up on (their metadata, to re-drive by hand). */
  readonly streamFailureQueue: Queue;
  readonly dispatcher: BoxofficeFunction;
  readonly sender: BoxofficeFunction;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    const secure = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', { ...secure, retentionPeriod: Duration.days(14) });
    this.queue = new Queue(this, 'Queue', {
      ...secure,
      // A crashed attempt comes back after this; at least 6x the sender's timeout, as AWS advises for Lambda consumers.
      visibilityTimeout: Duration.seconds(SENDER_TIMEOUT.toSeconds() * 6),
      // The last retry comes about 21 h after the first attempt; 4 days leaves room for an outage.
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    this.streamFailureQueue = new Queue(this, 'StreamFailureQueue', { ...secure, retentionPeriod: Duration.days(14) });
    Validations.of(this.streamFailureQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself a dead-letter destination: the on-failure destination of the dispatcher\'s stream event source mapping.',
    });

    const [dispatcherName, senderName] = WEBHOOK_FUNCTIONS;
    this.dispatcher = this.deliveryFunction('Dispatcher', dispatcherName, 'Boxoffice webhook dispatcher: outbox events -> deliveries -> delivery queue', Duration.millis(FUNCTION_TIMEOUT_MS.webhookDispatcher), props);
    this.dispatcher.addEnvironment('WEBHOOK_QUEUE_URL', this.queue.queueUrl);
    // Reads a workspace's endpoints (one Query), creates deliveries (conditional PutItem), enqueues them.
    this.grantTable(this.dispatcher, props.table, ['dynamodb:Query', 'dynamodb:PutItem']);
    this.dispatcher.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }));
    this.dispatcher.addEventSource(new DynamoEventSource(props.table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      maxBatchingWindow: Duration.seconds(1),
      filters: [FilterCriteria.filter(dispatchFilterPattern())],
      reportBatchItemFailures: true,
      bisectBatchOnError: true,
      retryAttempts: 10,
      maxRecordAge: Duration.days(1),
      onFailure: new SqsDlq(this.streamFailureQueue),
    }));

    this.sender = this.deliveryFunction('Sender', senderName, 'Boxoffice webhook sender: signs and POSTs deliveries, retries through the queue', SENDER_TIMEOUT, props);
    this.sender.addEnvironment('WEBHOOK_QUEUE_URL', this.queue.queueUrl);
    this.sender.addEnvironment('WEBHOOK_DEAD_LETTER_QUEUE_URL', this.deadLetterQueue.queueUrl);
    // A delivery that failed all 8 attempts is sent to the DLQ, so that its alarm fires.
    this.sender.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.deadLetterQueue.queueArn] }));
    // Reads delivery, endpoint and event (GetItem), records each attempt (conditional UpdateItem).
    this.grantTable(this.sender, props.table, ['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    // Receive, delete and ChangeMessageVisibility (the retry schedule) on this queue only.
    this.sender.addEventSource(new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: 20 }));
  }

  private deliveryFunction(id: string, name: string, description: string, timeout: Duration, props: WebhookDeliveryProps): BoxofficeFunction {
    const entry = handlerEntry(name);
    const fn = new BoxofficeFunction(this, id, {
      entry,
      description,
      memorySize: 512,
      timeout,
      environment: { POWERTOOLS_SERVICE_NAME: `boxoffice-${name}`, ...deploymentEnvironment(entry, props.settings) },
    });
    // The sender opens secrets to sign; nothing here ever encrypts one.
    if (reachableModules(entry).has(WEBHOOK_SECRETS_MODULE)) fn.addToRolePolicy(webhookSecretsStatement(props.webhookSecretsKey, 'kms:Decrypt'));
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: 'Lets the function write to its own log group; the managed policy is the standard minimal Lambda logging policy.',
    });
    return fn;
  }

  private grantTable(fn: BoxofficeFunction, table: ITableV2, actions: string[]): void {
    fn.addToRolePolicy(new PolicyStatement({ actions, resources: [table.tableArn] }));
    fn.denyOperatorItems(table, []);
    fn.addEnvironment('TABLE_NAME', table.tableName);
  }
}
