import { beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { TABLE_KEYS } from '../../shared/db/table-design.js';
import { MAX_RECEIVE_COUNT } from '../../lib/webhook-delivery.js';
import { refTarget, resourcesOf, synthesize, type SynthesizedApp } from './support/synth.js';

let app: SynthesizedApp;

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

beforeAll(() => {
  app = synthesize({ alarmEmail: 'ops@example.com' });
});

/** The function whose POWERTOOLS_SERVICE_NAME is `boxoffice-<name>`, with its role's statements. */
function fn(name: string): { logicalId: string; properties: Record<string, unknown>; statements: Statement[] } {
  const [logicalId, resource] = Object.entries(resourcesOf(app.api, 'AWS::Lambda::Function'))
    .find(([, candidate]) => JSON.stringify(candidate.Properties.Environment ?? {}).includes(`"boxoffice-${name}"`)) ?? [];
  if (!logicalId || !resource) throw new Error(`no function ${name}`);
  const roleId = refTarget(resource.Properties.Role);
  // X-Ray's grant on * and the Deny of the operators' partitions are on every function and checked in functions.test.ts.
  const statements = Object.values(resourcesOf(app.api, 'AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties.Roles as unknown[]).some((role) => refTarget(role) === roleId))
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
    .filter((statement) => statement.Resource !== '*' && statement.Effect === 'Allow');
  return { logicalId, properties: resource.Properties, statements };
}

const actions = (statements: Statement[]) => statements.flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action])).sort();
const queues = () => resourcesOf(app.api, 'AWS::SQS::Queue');
const queueId = (fragment: string) => Object.keys(queues()).find((id) => id.includes(fragment)) as string;

describe('webhook delivery infrastructure', () => {
  it('streams the single table\'s new images', () => {
    app.data.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: Match.arrayWith([{ AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' }]),
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
  });

  it('feeds the dispatcher from the stream, filtered to inserted outbox events and deliveries, with partial batch failures and a failure queue', () => {
    // Act
    const mapping = Object.values(resourcesOf(app.api, 'AWS::Lambda::EventSourceMapping'))
      .find((candidate) => refTarget(candidate.Properties.FunctionName) === fn('webhook-dispatcher').logicalId);
    // Assess
    expect(mapping?.Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['WebhookEvent', 'WebhookDelivery'] } } } }) }] },
    });
    expect(JSON.stringify(mapping?.Properties.EventSourceArn)).toContain('StreamArn');
    expect(JSON.stringify(mapping?.Properties.DestinationConfig)).toContain(queueId('StreamFailureQueue'));
  });

  it('queues deliveries with SSE, TLS only, and a dead-letter queue after 12 receives (crashes; the sender dead-letters failed deliveries itself)', () => {
    // Act
    const queue = queues()[queueId('WebhooksQueue')];
    // Assess
    expect(queue?.Properties).toMatchObject({ SqsManagedSseEnabled: true, VisibilityTimeout: 180 });
    expect(queue?.Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [queueId('DeadLetterQueue'), 'Arn'] }, maxReceiveCount: MAX_RECEIVE_COUNT });
    for (const [id, candidate] of Object.entries(queues())) {
      expect(candidate.Properties.SqsManagedSseEnabled, id).toBe(true);
    }
    const policies = Object.values(resourcesOf(app.api, 'AWS::SQS::QueuePolicy'));
    expect(policies).toHaveLength(3);
    for (const policy of policies) expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it('feeds the sender from the queue, 10 messages at a time, with partial batch failures', () => {
    const mapping = Object.values(resourcesOf(app.api, 'AWS::Lambda::EventSourceMapping'))
      .find((candidate) => refTarget(candidate.Properties.FunctionName) === fn('webhook-sender').logicalId);
    expect(mapping?.Properties).toMatchObject({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    expect(JSON.stringify(mapping?.Properties.EventSourceArn)).toContain(queueId('WebhooksQueue'));
    expect(fn('webhook-sender').properties.Timeout).toBe(30);
  });

  it('grants the dispatcher Query and PutItem on the table, the stream reads, and SendMessage on the queue: nothing else', () => {
    // Act
    const { statements } = fn('webhook-dispatcher');
    // Assess
    expect(actions(statements)).toEqual([
      'dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams', 'dynamodb:PutItem', 'dynamodb:Query',
      'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage', 'sqs:SendMessage',
    ].sort());
    const send = statements.filter((statement) => actions([statement]).includes('sqs:SendMessage'));
    expect(send.map((statement) => JSON.stringify(statement.Resource)).sort()).toEqual(
      [queueId('WebhooksQueue'), queueId('StreamFailureQueue')].map((id) => JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] })).sort(),
    );
    expect(actions(statements).some((action) => action.startsWith('kms:'))).toBe(false);
  });

  it('grants the sender GetItem and UpdateItem, consuming its queue, dead-lettering to its DLQ, and kms:Decrypt of webhook secrets only', () => {
    // Act
    const { statements, properties } = fn('webhook-sender');
    // Assess
    expect(actions(statements)).toEqual([
      'dynamodb:GetItem', 'dynamodb:UpdateItem', 'kms:Decrypt',
      'sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage', 'sqs:SendMessage',
    ].sort());
    const send = statements.filter((statement) => actions([statement]).includes('sqs:SendMessage'));
    expect(send.map((statement) => statement.Resource)).toEqual([{ 'Fn::GetAtt': [queueId('DeadLetterQueue'), 'Arn'] }]);
    expect(JSON.stringify((properties.Environment as { Variables: Record<string, unknown> }).Variables.WEBHOOK_DEAD_LETTER_QUEUE_URL)).toContain(queueId('DeadLetterQueue'));
    const kms = statements.find((statement) => statement.Action === 'kms:Decrypt');
    expect(kms?.Condition).toEqual({ StringEquals: { 'kms:EncryptionContext:purpose': 'webhook-endpoint-secret' } });
    expect(JSON.stringify(kms?.Resource)).toContain('WebhookSecretsKey');
  });

  it('lets the webhooks API function encrypt secrets but never decrypt them, and no other function touch the key', () => {
    // Act
    const users = Object.values(resourcesOf(app.api, 'AWS::IAM::Policy'))
      .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
      .filter((statement) => actions([statement]).some((action) => action.startsWith('kms:')) && JSON.stringify(statement.Resource).includes('WebhookSecretsKey'));
    // Assess
    expect(actions(fn('webhooks').statements).filter((action) => action.startsWith('kms:'))).toEqual(['kms:Encrypt']);
    expect(users.map((statement) => actions([statement])).flat().sort()).toEqual(['kms:Decrypt', 'kms:Encrypt']);
  });

  it('keeps the secrets key in the data stack, rotated and retained', () => {
    app.data.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain', Properties: Match.objectLike({ EnableKeyRotation: true, Description: Match.stringLikeRegexp('webhook') }) });
  });

  it('alarms on any dead-lettered delivery, on stream records the dispatcher gave up on, and on a stuck stream', () => {
    // Act
    const alarms = Object.values(resourcesOf(app.api, 'AWS::CloudWatch::Alarm'));
    const onQueue = (fragment: string) => alarms.filter((alarm) => JSON.stringify(alarm.Properties).includes(queueId(fragment)));
    // Assess
    for (const fragment of ['DeadLetterQueue', 'StreamFailureQueue']) {
      expect(onQueue(fragment).map((alarm) => alarm.Properties)).toEqual([expect.objectContaining({
        ComparisonOperator: 'GreaterThanThreshold', Threshold: 0, DatapointsToAlarm: 1, EvaluationPeriods: 1, AlarmActions: [expect.anything()],
      })]);
    }
    expect(alarms.some((alarm) => alarm.Properties.MetricName === 'IteratorAge' || JSON.stringify(alarm.Properties).includes('IteratorAge'))).toBe(true);
  });
});
