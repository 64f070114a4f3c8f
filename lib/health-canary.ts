import { CfnElement, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Code, Canary, Runtime, Schedule, Test } from 'aws-cdk-lib/aws-synthetics';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface HealthCanaryProps {
  /** Absolute URL of `GET /health/`. */
  readonly healthUrl: string;
}

/**
 * The probe: fetches `/health/` from outside every minute, fails when the status is not 200 or the
 * body does not say `"status": "ok"` (so `degraded` fails it too). The handler reads the body because
 * /health always answers 200 (spec), precisely so that probes can tell degraded from down.
 */
const CANARY_SOURCE = `
const https = require('https');
exports.handler = async () => {
  const url = process.env.HEALTH_URL;
  const { status, body } = await new Promise((resolve, reject) => {
    const request = https.get(url, { timeout: 10000 }, (response) => {
      let data = '';
      response.on('data', (chunk) => { data += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, body: data }));
    });
    request.on('timeout', () => request.destroy(new Error('timeout after 10 s')));
    request.on('error', reject);
  });
  if (status !== 200) throw new Error('GET ' + url + ' answered ' + status);
  let health;
  try { health = JSON.parse(body); } catch { throw new Error('GET ' + url + ' did not answer JSON'); }
  if (health.status !== 'ok') throw new Error('health status is ' + health.status + ' (db: ' + health.db + ')');
  return 'ok';
};
`;

/** A CloudWatch Synthetics canary: regional (unlike Route 53 health check metrics, only in us-east-1). */
export class HealthCanary extends Construct {
  readonly canary: Canary;

  constructor(scope: Construct, id: string, props: HealthCanaryProps) {
    super(scope, id);
    const artifacts = new Bucket(this, 'Artifacts', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(14) }],
      // Kept on `cdk destroy` (README Deploy, step 8): the canary writes to it every minute, so it is never
      // empty, and CloudFormation cannot delete a bucket that is not. Its objects expire after 14 days.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(artifacts).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Canary run artifacts (logs of a synthetic request), expired after 14 days; access logs of them would add nothing.',
    });
    this.canary = new Canary(this, 'Canary', {
      schedule: Schedule.rate(Duration.minutes(1)),
      runtime: Runtime.SYNTHETICS_NODEJS_PUPPETEER_13_0,
      test: Test.custom({ code: Code.fromInline(CANARY_SOURCE), handler: 'index.handler' }),
      environmentVariables: { HEALTH_URL: props.healthUrl },
      artifactsBucketLocation: { bucket: artifacts },
      successRetentionPeriod: Duration.days(7),
      failureRetentionPeriod: Duration.days(14),
    });
    const artifactsLogicalId = Stack.of(this).getLogicalId(artifacts.node.defaultChild as CfnElement);
    const findings: Record<string, string> = {
      'Resource::*': 'cloudwatch:PutMetricData (scoped by a namespace condition) and s3:ListAllMyBuckets have no resource-level permissions; the role is the one CDK generates for canaries.',
      [`Resource::<${artifactsLogicalId}.Arn>/*`]: 'The canary writes its run artifacts (screenshots, logs) under keys it chooses, in its own bucket only.',
      'Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:/aws/lambda/cwsyn-*': 'Synthetics names the canary\'s log group itself (`/aws/lambda/cwsyn-<name>-<id>`), so it is known only by prefix.',
    };
    for (const [finding, reason] of Object.entries(findings)) {
      Validations.of(this.canary).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
    }
  }
}
