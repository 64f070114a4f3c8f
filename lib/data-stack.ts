import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AttributeType, Billing, StreamViewType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Distribution, HttpVersion, PriceClass, ViewerProtocolPolicy, CachePolicy } from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { IDEMPOTENCY_TABLE_KEYS, INDEXES, TABLE_KEYS, TABLE_STREAM_VIEW, type IndexDesign } from '../shared/db/table-design.js';

export interface ImagesBucketExports {
  readonly arn: string;
  readonly name: string;
}

export interface DataStackProps extends StackProps {
  /** Deployment stage (`dev`, `prod`, ...): part of names and tags. */
  readonly stage: string;
}

/**
 * Everything stateful: the single table, the idempotency table, and the image assets bucket behind
 * CloudFront. Separate from the API stack so that the API can be torn down and redeployed freely;
 * the data is RETAINed and deletion-protected.
 */
export class DataStack extends Stack {
  readonly table: TableV2;
  readonly idempotencyTable: TableV2;
  readonly imagesBucket: Bucket;
  readonly imagesDistribution: Distribution;
  /** `https://<distribution>` : what image URLs start with (IMAGES_BASE_URL). */
  readonly imagesBaseUrl: string;
  /**
   * Named exports of the bucket (instead of CDK's generated ones) so that consumers' IAM findings
   * name a stable resource that cdk-nag acknowledgements can quote.
   */
  readonly imagesBucketExports: ImagesBucketExports;
  /**
   * Encrypts webhook signing secrets (the sender needs them back for the HMAC, so they cannot be
   * hashes). Stateful like the table: losing it would make every stored secret unreadable.
   */
  readonly webhookSecretsKey: Key;
  /** Staging bucket of the two-step image upload: private, no CDN, objects expire after a day. */
  readonly imageUploadsBucket: Bucket;
  readonly imageUploadsBucketExports: ImagesBucketExports;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);

    this.table = new TableV2(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      // Index names and keys come from the same design the repositories and the local bootstrap use.
      globalSecondaryIndexes: (Object.values(INDEXES) as IndexDesign[]).map((index) => ({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      })),
      timeToLiveAttribute: TABLE_KEYS.ttl,
      // The webhook dispatcher reads outbox events and deliveries from the stream (same view as locally).
      dynamoStream: StreamViewType[TABLE_STREAM_VIEW],
      billing: Billing.onDemand(),
      encryption: TableEncryptionV2.awsManagedKey(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.webhookSecretsKey = new Key(this, 'WebhookSecretsKey', {
      description: `Boxoffice ${props.stage}: encrypts webhook endpoint signing secrets`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.idempotencyTable = new TableV2(this, 'IdempotencyTable', {
      partitionKey: { name: IDEMPOTENCY_TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      timeToLiveAttribute: IDEMPOTENCY_TABLE_KEYS.ttl,
      billing: Billing.onDemand(),
      encryption: TableEncryptionV2.awsManagedKey(),
      // Records live 24 h; losing them only loses replay protection, so no PITR and easy replacement.
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.idempotencyTable).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason: 'Idempotency records expire after 24 hours and only guard retries; restoring them from a backup has no value.',
    });

    const accessLogs = new Bucket(this, 'AccessLogsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logs are delivered with ACLs.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access log bucket itself; logging it into itself would loop and another bucket would only move the problem.',
    });

    this.imagesBucket = new Bucket(this, 'ImagesBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'images-bucket/',
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Image URLs are served through CloudFront with Origin Access Control: stable, cacheable URLs (keys
    // never change, objects are immutable) and a bucket that never needs to be public.
    this.imagesDistribution = new Distribution(this, 'ImagesDistribution', {
      comment: `Boxoffice ${props.stage} image assets`,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.imagesBucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: accessLogs,
      logFilePrefix: 'images-cdn/',
    });
    Validations.of(this.imagesDistribution).acknowledge({
      id: 'AwsSolutions-CFR4',
      reason: 'The distribution uses the default *.cloudfront.net certificate, for which CloudFront only allows TLSv1 as the viewer minimum; a custom domain with its own certificate lifts this and is a per-deployment choice.',
    });
    Validations.of(this.imagesDistribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'Public event images are meant to be viewed from anywhere; there is no geographic restriction requirement.',
    });
    Validations.of(this.imagesDistribution).acknowledge({
      id: 'AwsSolutions-CFR2',
      reason: 'The distribution serves static, immutable, public images from a private bucket; no dynamic content for a WAF to protect. Attach a web ACL per deployment if abuse appears.',
    });
    // Large images go straight from the client to this bucket with a presigned PUT (no 6 MB Lambda
    // limit on the way); the images function checks them and copies them into the images bucket. Never
    // served: an unchecked upload must not be reachable through the CDN.
    this.imageUploadsBucket = new Bucket(this, 'ImageUploadsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'image-uploads-bucket/',
      lifecycleRules: [{ expiration: Duration.days(1), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      // Browsers may PUT directly from any site that embeds an upload; the URL's signature is the credential.
      cors: [{ allowedMethods: [HttpMethods.PUT], allowedOrigins: ['*'], allowedHeaders: ['content-type'], maxAge: 3000 }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.imagesBaseUrl = `https://${this.imagesDistribution.distributionDomainName}`;
    this.imagesBucketExports = { arn: `boxoffice-${props.stage}-images-bucket-arn`, name: `boxoffice-${props.stage}-images-bucket-name` };
    new CfnOutput(this, 'ImagesBucketArn', { value: this.imagesBucket.bucketArn, exportName: this.imagesBucketExports.arn });
    new CfnOutput(this, 'ImagesBucketName', { value: this.imagesBucket.bucketName, exportName: this.imagesBucketExports.name });
    this.imageUploadsBucketExports = { arn: `boxoffice-${props.stage}-image-uploads-bucket-arn`, name: `boxoffice-${props.stage}-image-uploads-bucket-name` };
    new CfnOutput(this, 'ImageUploadsBucketArn', { value: this.imageUploadsBucket.bucketArn, exportName: this.imageUploadsBucketExports.arn });
    new CfnOutput(this, 'ImageUploadsBucketName', { value: this.imageUploadsBucket.bucketName, exportName: this.imageUploadsBucketExports.name });
    new CfnOutput(this, 'ImagesBaseUrl', { value: this.imagesBaseUrl, description: 'IMAGES_BASE_URL: image URLs start with it' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'TABLE_NAME for the admin CLI' });
  }
}
