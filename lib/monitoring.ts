import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { MonitoringFacade, SnsAlarmActionStrategy } from 'cdk-monitoring-constructs';
import { Construct } from 'constructs';
import { HealthCanary } from './health-canary.js';
import type { WebhookDelivery } from './webhook-delivery.js';
import type { BusinessMetricGroup } from './business-metrics.js';

export interface BoxofficeMonitoringProps {
  readonly stage: string;
  readonly api: RestApi;
  /** Functions by a short name used in alarm names (group name, `authorizer`); each with its timeout. */
  readonly functions: ReadonlyMap<string, LambdaFunction>;
  /** Names (in `functions`) of the functions a stream invokes: they get an iterator-age alarm. @default none */
  readonly streamConsumers?: readonly string[];
  readonly tables: readonly ITableV2[];
  /** Absolute URL of `GET /health/`, probed from outside every minute. */
  readonly healthUrl: string;
  /** Webhook delivery: its functions, queue and dead-letter queues. */
  readonly webhooks: Pick<WebhookDelivery, 'dispatcher' | 'sender' | 'queue' | 'deadLetterQueue' | 'streamFailureQueue'>;
  /** Email subscribed to the alarm topic. @default no subscription (subscribe later in the console) */
  readonly alarmEmail?: string;
  /** Probe `GET /health/` from outside every minute, with its alarm. */
  readonly healthCanary: boolean;
  /** The business metrics' graphs (lib/business-metrics.ts). @default none */
  readonly businessMetrics?: readonly BusinessMetricGroup[];
}

/** Alarm levels: one, because every alarm here needs a human. */
const CRITICAL = 'Critical';

/** A stream consumer this far behind the table's writes needs a human (the records expire after 24 h). */
const MAX_ITERATOR_AGE_MS = 5 * 60 * 1000;

/**
 * The p99 duration that alarms: half the function's timeout (an API function's 5 s of its 10 s, the
 * authorizer's 2.5 s of 5 s, a 60 s batch job's 30 s), so the alarm fires while there is still room,
 * never only at the timeout (which its error alarm catches anyway) and never on a batch job's normal run.
 */
export function p99Threshold(fn: LambdaFunction): Duration {
  const timeout = fn.timeout ?? Duration.seconds(3);
  return Duration.millis(timeout.toMilliseconds() / 2);
}

/**
 * Dashboard and alarms through cdk-monitoring-constructs: API 5xx and p99 latency, per-function
 * errors, throttles and p99 duration (above half its timeout), the iterator age of the stream consumers,
 * DynamoDB throttles and system errors, and the external /health probe. Every alarm notifies one SNS topic.
 */
export class BoxofficeMonitoring extends Construct {
  readonly alarmTopic: Topic;
  readonly facade: MonitoringFacade;
  /** The external /health probe, in stages that ask for it. */
  readonly healthCanary?: HealthCanary;

  constructor(scope: Construct, id: string, props: BoxofficeMonitoringProps) {
    super(scope, id);
    const topicKey = new Key(this, 'AlarmTopicKey', { enableKeyRotation: true, description: 'Boxoffice alarm topic encryption' });
    // CloudWatch publishes alarms to the encrypted topic, so it must be able to use the key.
    topicKey.addToResourcePolicy(new PolicyStatement({
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      resources: ['*'],
    }));
    this.alarmTopic = new Topic(this, 'AlarmTopic', { displayName: `Boxoffice ${props.stage} alarms`, masterKey: topicKey, enforceSSL: true });
    if (props.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(props.alarmEmail));

    this.facade = new MonitoringFacade(this, 'Facade', {
      alarmFactoryDefaults: {
        alarmNamePrefix: `boxoffice-${props.stage}`,
        actionsEnabled: true,
        action: new SnsAlarmActionStrategy({ onAlarmTopic: this.alarmTopic, onOkTopic: this.alarmTopic }),
        datapointsToAlarm: 3,
        evaluationPeriods: 5,
      },
    });

    this.facade.addLargeHeader(`Boxoffice ${props.stage}`);
    this.facade.monitorApiGateway({
      api: props.api,
      apiStage: props.api.deploymentStage.stageName,
      alarmFriendlyName: 'api',
      add5XXFaultCountAlarm: { [CRITICAL]: { maxErrorCount: 5 } },
      addLatencyP99Alarm: { [CRITICAL]: { maxLatency: Duration.seconds(3) } },
    });

    for (const [name, fn] of props.functions) {
      const streamConsumer = props.streamConsumers?.includes(name) ?? false;
      this.facade.monitorLambdaFunction({
        lambdaFunction: fn,
        alarmFriendlyName: `fn-${name}`,
        addFaultCountAlarm: { [CRITICAL]: { maxErrorCount: 5 } },
        addThrottlesCountAlarm: { [CRITICAL]: { maxErrorCount: 1 } },
        addLatencyP99Alarm: { [CRITICAL]: { maxLatency: p99Threshold(fn) } },
        ...(streamConsumer ? { isIterator: true, addMaxIteratorAgeAlarm: { [CRITICAL]: { maxAgeInMillis: MAX_ITERATOR_AGE_MS } } } : {}),
      });
    }

    for (const table of props.tables) {
      this.facade.monitorDynamoTable({
        table,
        addReadThrottledEventsCountAlarm: { [CRITICAL]: { maxThrottledEventsThreshold: 5 } },
        addWriteThrottledEventsCountAlarm: { [CRITICAL]: { maxThrottledEventsThreshold: 5 } },
        addSystemErrorCountAlarm: { [CRITICAL]: { maxErrorCount: 1 } },
      });
    }

    this.monitorWebhooks(props.webhooks);
    if (props.businessMetrics) this.monitorBusiness(props.businessMetrics);

    if (props.healthCanary) this.healthCanary = this.monitorHealth(props.healthUrl);
  }

  /**
   * What the platform sells and collects: graphs only. A quiet hour is not an incident, so business
   * metrics have no alarm; the functions behind them have (errors, throttles, iterator age).
   */
  private monitorBusiness(groups: readonly BusinessMetricGroup[]): void {
    this.facade.addMediumHeader('Business');
    this.facade.monitorCustom({
      alarmFriendlyName: 'business',
      humanReadableName: 'Committed business events (from the table stream, 5-minute sums)',
      metricGroups: groups.map((group) => ({ title: group.title, metrics: group.metrics })),
    });
  }

  /** The canary probing `GET /health/` every minute, and its alarm. */
  private monitorHealth(healthUrl: string): HealthCanary {
    const healthCanary = new HealthCanary(this, 'HealthCanary', { healthUrl });
    this.facade.monitorCustom({
      alarmFriendlyName: 'health',
      humanReadableName: 'GET /health/ probed from outside every minute',
      metricGroups: [{
        title: 'Health probe success %',
        metrics: [{
          metric: healthCanary.canary.metricSuccessPercent({ period: Duration.minutes(1) }),
          alarmFriendlyName: 'health-probe',
          addAlarm: {
            [CRITICAL]: {
              // Below 100 % means a run failed: unreachable, non-200, or `degraded` (db disconnected).
              threshold: 100,
              comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
              // A canary that stops reporting is as bad as one that fails.
              treatMissingDataOverride: TreatMissingData.BREACHING,
              datapointsToAlarm: 2,
              evaluationPeriods: 3,
              additionalDescription: 'GET /health/ failed or reported degraded in 2 of the last 3 minutes.',
            },
          },
        }],
      }],
    });
    return healthCanary;
  }

  /**
   * Webhook delivery: errors and throttles of both functions, the dispatcher's stream iterator age (a
   * stuck dispatcher delays every delivery), and any message in either dead-letter queue: a delivery
   * that failed its whole schedule (or crashed the sender), or stream records the dispatcher gave up on.
   */
  private monitorWebhooks(webhooks: BoxofficeMonitoringProps['webhooks']): void {
    const now = { datapointsToAlarm: 1, evaluationPeriods: 1 };
    this.facade.addMediumHeader('Webhooks');
    this.facade.monitorLambdaFunction({
      lambdaFunction: webhooks.dispatcher,
      alarmFriendlyName: 'fn-webhook-dispatcher',
      isIterator: true,
      addFaultCountAlarm: { [CRITICAL]: { maxErrorCount: 5 } },
      addThrottlesCountAlarm: { [CRITICAL]: { maxErrorCount: 1 } },
      addMaxIteratorAgeAlarm: { [CRITICAL]: { maxAgeInMillis: MAX_ITERATOR_AGE_MS } },
    });
    this.facade.monitorLambdaFunction({
      lambdaFunction: webhooks.sender,
      alarmFriendlyName: 'fn-webhook-sender',
      addFaultCountAlarm: { [CRITICAL]: { maxErrorCount: 5 } },
      addThrottlesCountAlarm: { [CRITICAL]: { maxErrorCount: 1 } },
    });
    this.facade.monitorSqsQueueWithDlq({
      queue: webhooks.queue,
      deadLetterQueue: webhooks.deadLetterQueue,
      alarmFriendlyName: 'webhook-deliveries',
      addDeadLetterQueueMaxSizeAlarm: { [CRITICAL]: { maxMessageCount: 0, ...now, alarmDescriptionOverride: 'A webhook delivery was dead-lettered: it failed all 8 attempts (the receiver kept failing; its attempts are listed by GET /v1/webhook-endpoints/{id}/deliveries), or the sender crashed on it 12 times.' } },
    });
    this.facade.monitorSqsQueue({
      queue: webhooks.streamFailureQueue,
      alarmFriendlyName: 'webhook-stream-failures',
      addQueueMaxSizeAlarm: { [CRITICAL]: { maxMessageCount: 0, ...now, alarmDescriptionOverride: 'The webhook dispatcher gave up on stream records: their events were not fanned out.' } },
    });
  }
}
