import { beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { IDEMPOTENCY_TABLE_KEYS, INDEXES, TABLE_KEYS, mainTableDefinition } from '../../shared/db/table-design.js';
import { activeGroups } from '../../shared/http/routes.js';
import { WEBHOOK_FUNCTIONS } from '../../lib/webhook-delivery.js';
import { BUSINESS_METRIC_NAMES } from '../../shared/observability/business-metrics.js';
import { resourcesOf, synthesize, type SynthesizedApp } from './support/synth.js';

let app: SynthesizedApp;

beforeAll(() => {
  app = synthesize({ alarmEmail: 'ops@example.com', healthCanary: true });
});

function tableWithKey(partitionKey: string) {
  return Object.values(resourcesOf(app.data, 'AWS::DynamoDB::GlobalTable'))
    .find((table) => (table.Properties.KeySchema as { AttributeName: string }[])[0]?.AttributeName === partitionKey);
}

describe('data stack', () => {
  it('builds the single table from the shared design: keys, GSIs, TTL, on-demand', () => {
    // Prepare
    const design = mainTableDefinition('any');

    // Act
    const table = tableWithKey(TABLE_KEYS.partitionKey);

    // Assess
    expect(table?.Properties.KeySchema).toEqual(design.KeySchema);
    expect(table?.Properties.AttributeDefinitions).toEqual(expect.arrayContaining(design.AttributeDefinitions ?? []));
    expect((table?.Properties.GlobalSecondaryIndexes as { IndexName: string; KeySchema: unknown }[]).map((index) => [index.IndexName, index.KeySchema]))
      .toEqual(Object.values(INDEXES).map((index) => [index.indexName, [{ AttributeName: index.partitionKey, KeyType: 'HASH' }, { AttributeName: index.sortKey, KeyType: 'RANGE' }]]));
    expect(table?.Properties.TimeToLiveSpecification).toEqual({ AttributeName: TABLE_KEYS.ttl, Enabled: true });
    expect(table?.Properties.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('protects the single table: PITR, deletion protection, encryption, RETAIN', () => {
    // Assess
    app.data.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        KeySchema: Match.arrayWith([{ AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' }]),
        SSESpecification: { SSEEnabled: true },
        Replicas: [Match.objectLike({ DeletionProtectionEnabled: true, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
      }),
    });
  });

  it('keeps idempotency records in their own table with their own TTL', () => {
    // Act
    const table = tableWithKey(IDEMPOTENCY_TABLE_KEYS.partitionKey);

    // Assess
    expect(table?.Properties.KeySchema).toEqual([{ AttributeName: IDEMPOTENCY_TABLE_KEYS.partitionKey, KeyType: 'HASH' }]);
    expect(table?.Properties.TimeToLiveSpecification).toEqual({ AttributeName: IDEMPOTENCY_TABLE_KEYS.ttl, Enabled: true });
  });

  it('keeps the images bucket private, encrypted and TLS-only, served through CloudFront with OAC', () => {
    // Assess
    app.data.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: Match.anyValue(),
        LoggingConfiguration: Match.anyValue(),
      }),
    });
    app.data.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    app.data.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    app.data.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https' }) }),
    });
  });
});

describe('monitoring', () => {
  const alarms = () => Object.values(resourcesOf(app.api, 'AWS::CloudWatch::Alarm'));
  const alarmsOn = (namespace: string, metricName: string) => alarms().filter((alarm) => JSON.stringify(alarm.Properties).includes(`"${metricName}"`) && JSON.stringify(alarm.Properties).includes(namespace));

  it('alarms on API 5xx and p99 latency', () => {
    // Assess
    expect(alarmsOn('AWS/ApiGateway', '5XXError')).toHaveLength(1);
    expect(alarmsOn('AWS/ApiGateway', 'Latency').some((alarm) => JSON.stringify(alarm.Properties).includes('p99'))).toBe(true);
  });

  it('alarms on errors and throttles of every function, and on p99 duration of those that answer a request', () => {
    // Prepare
    // The group functions, the authorizer, the refund reconciler, the event end sweeper and business
    // metrics answer (or must finish) quickly; the webhook sender waits on receivers for up to 10 s by
    // design, so its duration says nothing.
    const answering = activeGroups().length + 4;

    // Assess
    expect(alarmsOn('AWS/Lambda', 'Errors')).toHaveLength(answering + WEBHOOK_FUNCTIONS.length);
    expect(alarmsOn('AWS/Lambda', 'Throttles')).toHaveLength(answering + WEBHOOK_FUNCTIONS.length);
    expect(alarmsOn('AWS/Lambda', 'Duration')).toHaveLength(answering);
  });

  it('alarms on a p99 duration above half of each function\'s timeout, never at or past the timeout', () => {
    // Prepare
    const timeouts = Object.values(resourcesOf(app.api, 'AWS::Lambda::Function')).map((fn) => fn.Properties.Timeout as number);

    // Act
    const thresholds = alarmsOn('AWS/Lambda', 'Duration').map((alarm) => alarm.Properties.Threshold as number);

    // Assess
    expect(new Set(thresholds)).toEqual(new Set([5_000, 2_500, 30_000, 15_000]));
    expect(Math.max(...thresholds)).toBeLessThan(Math.max(...timeouts) * 1_000);
  });

  it('alarms on the iterator age of both stream consumers: the webhook dispatcher and business metrics', () => {
    // Assess
    expect(alarmsOn('AWS/Lambda', 'IteratorAge')).toHaveLength(2);
  });

  it('alarms on DynamoDB throttles and system errors of both tables', () => {
    // Assess
    expect(alarmsOn('AWS/DynamoDB', 'ReadThrottleEvents').length).toBeGreaterThanOrEqual(2);
    expect(alarmsOn('AWS/DynamoDB', 'WriteThrottleEvents').length).toBeGreaterThanOrEqual(2);
    expect(alarmsOn('AWS/DynamoDB', 'SystemErrors').length).toBeGreaterThanOrEqual(2);
  });

  it('probes /health/ from outside every minute and alarms when it fails or reports degraded', () => {
    // Assess
    app.api.hasResourceProperties('AWS::Synthetics::Canary', {
      Schedule: { Expression: 'rate(1 minute)' },
      RunConfig: Match.objectLike({ EnvironmentVariables: { HEALTH_URL: Match.anyValue() } }),
      Code: Match.objectLike({ Script: Match.stringLikeRegexp("health.status !== 'ok'") }),
    });
    const [health] = alarmsOn('CloudWatchSynthetics', 'SuccessPercent');
    expect(health?.Properties).toMatchObject({ ComparisonOperator: 'LessThanThreshold', Threshold: 100, TreatMissingData: 'breaching' });
  });

  it('sends every alarm to the SNS topic, which mails the address from context', () => {
    // Assess
    const topicId = Object.keys(resourcesOf(app.api, 'AWS::SNS::Topic'))[0] as string;
    for (const alarm of alarms()) expect(JSON.stringify(alarm.Properties.AlarmActions)).toContain(topicId);
    app.api.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it('builds a dashboard', () => {
    // Assess
    expect(Object.keys(resourcesOf(app.api, 'AWS::CloudWatch::Dashboard')).length).toBeGreaterThanOrEqual(1);
  });

  it('draws every business metric on the dashboard, from the stage\'s namespace, amounts per currency', () => {
    // Act
    const body = JSON.stringify(Object.values(resourcesOf(app.api, 'AWS::CloudWatch::Dashboard')).map((dashboard) => dashboard.Properties.DashboardBody));

    // Assess
    for (const name of BUSINESS_METRIC_NAMES) expect(body).toContain(name);
    expect(body).toContain('Boxoffice/test');
    expect(body).toMatch(/SEARCH\('\{Boxoffice\/test,currency,service\} MetricName=.{0,12}PaymentGross/);
  });
});
