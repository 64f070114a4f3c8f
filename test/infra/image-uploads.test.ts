import { beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { refTarget, resourcesOf, synthesize, type SynthesizedApp } from './support/synth.js';

let app: SynthesizedApp;

beforeAll(() => {
  app = synthesize();
});

interface Statement { Action: string | string[]; Resource: unknown }

function uploadsBucketId(): string {
  return Object.keys(resourcesOf(app.data, 'AWS::S3::Bucket')).find((id) => id.startsWith('ImageUploadsBucket')) as string;
}

function functionByService(service: string) {
  return Object.values(resourcesOf(app.api, 'AWS::Lambda::Function'))
    .find((resource) => (resource.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables?.POWERTOOLS_SERVICE_NAME === service);
}

function statementsOf(service: string): Statement[] {
  const roleId = refTarget(functionByService(service)?.Properties.Role);
  return Object.values(resourcesOf(app.api, 'AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties.Roles as unknown[]).some((role) => refTarget(role) === roleId))
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

describe('image uploads bucket', () => {
  it('is private, encrypted, TLS-only, and forgets staged objects after a day', () => {
    // Act
    const bucket = resourcesOf(app.data, 'AWS::S3::Bucket')[uploadsBucketId()]?.Properties;

    // Assess
    expect(bucket?.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(bucket?.BucketEncryption).toBeDefined();
    expect(bucket?.LifecycleConfiguration).toEqual({ Rules: [expect.objectContaining({ ExpirationInDays: 1, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' })] });
    expect(bucket?.CorsConfiguration).toEqual({ CorsRules: [expect.objectContaining({ AllowedMethods: ['PUT'], AllowedHeaders: ['content-type'] })] });
    app.data.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: uploadsBucketId() },
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('is served by no CloudFront distribution (an unchecked upload is never public)', () => {
    // Act
    const distributions = JSON.stringify(resourcesOf(app.data, 'AWS::CloudFront::Distribution'));

    // Assess
    expect(distributions).not.toContain(uploadsBucketId());
  });
});

describe('images function and the uploads bucket', () => {
  it('may only put, get and delete staged objects under uploads/ (presign, inspect, copy, clean up)', () => {
    // Act
    const onUploads = statementsOf('boxoffice-images').filter((statement) => JSON.stringify(statement.Resource).includes('image-uploads-bucket-arn'));

    // Assess
    expect(onUploads).toHaveLength(1);
    expect([onUploads[0]?.Action].flat().sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    expect(JSON.stringify(onUploads[0]?.Resource)).toContain('/uploads/*');
  });

  it('is the only function that knows the uploads bucket or may touch it', () => {
    // Act
    const knowing = Object.values(resourcesOf(app.api, 'AWS::Lambda::Function'))
      .filter((resource) => (resource.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables?.IMAGE_UPLOADS_BUCKET !== undefined)
      .map((resource) => (resource.Properties.Environment as { Variables: Record<string, unknown> }).Variables.POWERTOOLS_SERVICE_NAME);
    const granted = Object.values(resourcesOf(app.api, 'AWS::IAM::Policy')).filter((policy) => JSON.stringify(policy.Properties.PolicyDocument).includes('image-uploads-bucket-arn'));

    // Assess
    expect(knowing).toEqual(['boxoffice-images']);
    expect(granted).toHaveLength(1);
  });
});
