import { Annotations, Duration, Fn, RemovalPolicy, Size, Stack, Validations, CfnOutput, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogFormat, ApiKeySourceType, EndpointType, IdentitySource, LogGroupLogDestination, MethodLoggingLevel, RequestAuthorizer, RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import type { ImagesBucketExports } from './data-stack.js';
import type { Construct } from 'constructs';
import { API_NAME } from '../shared/config.js';
import { BINARY_MEDIA_TYPES } from '../shared/http/gateway-responses.js';
import type { RouteGroup } from '../shared/http/route.js';
import { routeTable } from '../shared/http/routes.js';
import { workspaceKeys } from '../shared/workspaces/workspace-model.js';
import { INDEXES, TABLE_KEYS } from '../shared/db/table-design.js';
import { addRouteMethods } from './api-routes.js';
import { WebhookDelivery } from './webhook-delivery.js';
import { BoxofficeFunction } from './boxoffice-function.js';
import { EventEndSweeper } from './event-end-sweeper.js';
import { addGatewayErrors } from './gateway-errors.js';
import { ApiFirewall } from './api-firewall.js';
import { EDGE_RULES } from '../shared/http/edge-rules.js';
import { createGroupFunctions } from './group-functions.js';
import { BoxofficeMonitoring } from './monitoring.js';
import { handlerEntry } from './paths.js';
import { AUTHORIZER_CACHE_TTL_SECONDS, AUTHORIZER_IDENTITY_HEADER } from '../functions/authorizer/policy.js';
import { RefundReconciler } from './refund-reconciler.js';
import { BUSINESS_METRICS_FUNCTION, BusinessMetrics } from './business-metrics.js';
import { FUNCTION_TIMEOUT_MS } from '../shared/db/time-budget.js';

export interface ApiStackProps extends StackProps {
  readonly stage: string;
  readonly table: ITableV2;
  readonly idempotencyTable: ITableV2;
  readonly imagesBucketExports: ImagesBucketExports;
  readonly imageUploadsBucketExports: ImagesBucketExports;
  readonly imagesBaseUrl: string;
  /** KMS key of webhook signing secrets (Data stack). */
  readonly webhookSecretsKey: IKey;
  /** Email for alarm notifications. @default none (a synth/deploy warning says so) */
  readonly alarmEmail?: string;
  /** Probe `GET /health/` from outside every minute (a Synthetics canary, about $1.70 a day: 1,440 runs). @default false */
  readonly healthCanary?: boolean;
  /**
   * Ceiling of every method of the stage, all clients together (API Gateway applies stage throttling
   * per method). Each workspace's own limits are its usage plan; this only protects the backend.
   * @default 1000
   */
  readonly throttlingRateLimit?: number;
  /** @default 2000 */
  readonly throttlingBurstLimit?: number;
}

/** The authorizer's memory (MB): one hash and one GetItem per uncached key. */
export const AUTHORIZER_MEMORY_MB = 256;

/** The API key items' partition keys all start with this; the authorizer may read nothing else. */
export const API_KEY_LEADING_KEYS = workspaceKeys.apiKey('*')[TABLE_KEYS.partitionKey] as string;

/**
 * The REST API generated from the route table: one function per group, the key authorizer, gateway
 * responses shared with the local server, access logs, rate limits (a usage plan per workspace, a WAF
 * rate-based rule per client address on the public routes, a stage ceiling), and monitoring.
 */
export class ApiStack extends Stack {
  readonly api: RestApi;
  readonly functions: Map<RouteGroup, BoxofficeFunction>;
  readonly authorizerFunction: BoxofficeFunction;
  readonly refundReconciler: RefundReconciler;
  /** Business counters from the table stream, drawn on the dashboard. */
  readonly businessMetrics: BusinessMetrics;
  /** Ends partner-listing events from the upcoming key ranges, every minute. */
  readonly eventEndSweeper: EventEndSweeper;
  readonly monitoring: BoxofficeMonitoring;
  /** The stage's AWS WAF web ACL. */
  readonly firewall: ApiFirewall;
  /** Stream dispatcher, delivery queue and sender of webhooks. */
  readonly webhooks: WebhookDelivery;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);

    const imagesBucket = Bucket.fromBucketAttributes(this, 'ImagesBucket', {
      bucketArn: Fn.importValue(props.imagesBucketExports.arn),
      bucketName: Fn.importValue(props.imagesBucketExports.name),
    });
    const imageUploadsBucket = Bucket.fromBucketAttributes(this, 'ImageUploadsBucket', {
      bucketArn: Fn.importValue(props.imageUploadsBucketExports.arn),
      bucketName: Fn.importValue(props.imageUploadsBucketExports.name),
    });
    this.functions = createGroupFunctions(this, { ...props, imagesBucket, imageUploadsBucket });
    this.webhooks = new WebhookDelivery(this, 'Webhooks', {
      table: props.table,
      webhookSecretsKey: props.webhookSecretsKey,
      settings: {
        imagesBucketName: imagesBucket.bucketName,
        imagesBaseUrl: props.imagesBaseUrl,
        imageUploadsBucketName: imageUploadsBucket.bucketName,
        webhookSecretsKeyArn: props.webhookSecretsKey.keyArn,
      },
    });
    const imagesFunction = this.functions.get('images');
    if (imagesFunction) {
      Validations.of(imagesFunction).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${props.imagesBucketExports.arn}/*]`,
        reason: 'Uploads put objects under fresh, unpredictable keys (ids), so the grant covers the bucket\'s objects; the only action is s3:PutObject.',
      });
      Validations.of(imagesFunction).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${props.imageUploadsBucketExports.arn}/uploads/*]`,
        reason: 'Two-step uploads stage objects under fresh, unpredictable keys below uploads/; the function signs PUT URLs for them, reads them back to check them, and deletes them (no list, no ACL).',
      });
    }

    this.authorizerFunction = new BoxofficeFunction(this, 'AuthorizerFunction', {
      entry: handlerEntry('authorizer'),
      description: 'Boxoffice API key authorizer: resolves a Bearer key to its workspace with one GetItem',
      memorySize: AUTHORIZER_MEMORY_MB,
      timeout: Duration.millis(FUNCTION_TIMEOUT_MS.authorizer),
      environment: { POWERTOOLS_SERVICE_NAME: 'boxoffice-authorizer', TABLE_NAME: props.table.tableName },
    });
    // Not bindTable: the authorizer may read API key items and nothing else, whatever its code does.
    this.authorizerFunction.addToRolePolicy(new PolicyStatement({
      actions: ['dynamodb:GetItem'],
      resources: [props.table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [API_KEY_LEADING_KEYS] } },
    }));

    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: this.authorizerFunction,
      identitySources: [IdentitySource.header(AUTHORIZER_IDENTITY_HEADER)],
      // Policies are valid for every method and path (see functions/authorizer/policy.ts), so caching
      // per Authorization header is safe; a revoked key stops working within 5 minutes.
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    this.api = new RestApi(this, 'Api', {
      restApiName: `boxoffice-${props.stage}`,
      description: `${API_NAME} (${props.stage})`,
      endpointTypes: [EndpointType.REGIONAL],
      // Usage plans throttle each workspace: the authorizer names the workspace's API key
      // (usageIdentifierKey); clients never send one (an X-API-Key header is ignored).
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      binaryMediaTypes: [...BINARY_MEDIA_TYPES],
      // The docs bundle is 1.7 MB of JavaScript; gzip makes it a fifth of that for clients that ask.
      minCompressionSize: Size.kibibytes(1),
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.DESTROY,
      deployOptions: {
        stageName: props.stage,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: true,
        tracingEnabled: true,
        throttlingRateLimit: props.throttlingRateLimit ?? 1000,
        throttlingBurstLimit: props.throttlingBurstLimit ?? 2000,
      },
    });
    addGatewayErrors(this.api);
    // One web ACL on the stage: the per-address limit of the public routes (429), then bodies that would
    // reach Lambda too large to invoke (413, never a 5xx).
    this.firewall = new ApiFirewall(this, 'Firewall', {
      stage: this.api.deploymentStage, stageName: props.stage, edgeRules: EDGE_RULES, metricPrefix: `boxoffice-${props.stage}`,
    });
    addRouteMethods({ api: this.api, routes: routeTable, functions: this.functions, authorizer });

    this.refundReconciler = new RefundReconciler(this, 'RefundReconciler', {
      table: props.table,
      indexNames: Object.values(INDEXES).map((index) => index.indexName),
    });
    this.eventEndSweeper = new EventEndSweeper(this, 'EventEndSweeper', { table: props.table, idempotencyTable: props.idempotencyTable });

    this.businessMetrics = new BusinessMetrics(this, 'BusinessMetrics', { stage: props.stage, table: props.table });

    const allFunctions = new Map<string, BoxofficeFunction>([
      ...this.functions, ['authorizer', this.authorizerFunction], ['refund-reconciler', this.refundReconciler.function],
      ['event-end-sweeper', this.eventEndSweeper.function],
      [BUSINESS_METRICS_FUNCTION, this.businessMetrics.function],
    ]);
    const healthUrl = this.api.urlForPath('/health/');
    this.monitoring = new BoxofficeMonitoring(this, 'Monitoring', {
      stage: props.stage,
      api: this.api,
      functions: allFunctions,
      streamConsumers: [BUSINESS_METRICS_FUNCTION],
      tables: [props.table, props.idempotencyTable],
      webhooks: this.webhooks,
      healthUrl,
      healthCanary: props.healthCanary ?? false,
      businessMetrics: this.businessMetrics.dashboardGroups(),
      ...(props.alarmEmail ? { alarmEmail: props.alarmEmail } : {}),
    });
    if (!props.alarmEmail) {
      // Printed by `cdk synth` and `cdk deploy`: alarms that reach nobody look like monitoring but are not.
      Annotations.of(this).addWarningV2('boxoffice:no-alarm-email', [
        `NO ALARM EMAIL: the ${this.monitoring.facade.createdAlarms().length} alarms of stage "${props.stage}" notify an SNS topic nobody is subscribed to.`,
        'Deploy with -c alarmEmail=you@example.com, or subscribe to the AlarmTopicArn output yourself.',
      ].join(' '));
    }

    this.acknowledgeFindings();

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the API (stage included)' });
    // The admin CLI manages the workspaces' usage plans on this stage (REST_API_ID, API_STAGE).
    new CfnOutput(this, 'RestApiId', { value: this.api.restApiId, description: 'REST_API_ID for the admin CLI (usage plans)' });
    new CfnOutput(this, 'StageName', { value: this.api.deploymentStage.stageName, description: 'API_STAGE for the admin CLI (usage plans)' });
    new CfnOutput(this, 'DocsUrl', { value: this.api.urlForPath('/docs'), description: 'Interactive API documentation' });
    new CfnOutput(this, 'HealthUrl', { value: healthUrl, description: 'Health check (probed every minute where the stage has the canary)' });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.alarmTopic.topicArn, description: 'SNS topic every alarm notifies' });
  }

  /** cdk-nag findings that are deliberate, each with the reason. */
  private acknowledgeFindings(): void {
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason: 'Requests are validated once, in the group functions, by the zod schemas of the route table; API Gateway models would duplicate them and answer with a different error format.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-COG4',
      reason: 'Clients authenticate with workspace API keys (spec), verified by the Lambda REQUEST authorizer; there are no Cognito users.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: 'The account-level role API Gateway needs to write execution logs; the AWS managed policy is the documented way.',
    });
    for (const fn of [...this.functions.values(), this.authorizerFunction, this.refundReconciler.function, this.eventEndSweeper.function, this.businessMetrics.function]) {
      Validations.of(fn).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'Lets the function write to its own log group; the managed policy is the standard minimal Lambda logging policy.',
      });
    }
  }
}
