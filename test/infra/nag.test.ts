import { describe, expect, it } from 'vitest';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { addNagChecks } from '../../lib/nag.js';

/** A tiny app with cdk-nag attached exactly as the real one, holding a bucket that breaks AwsSolutions rules. */
function appWithNakedBucket(acknowledge: boolean): Stack {
  const app = new App();
  const stack = new Stack(app, 'Nag');
  const bucket = new Bucket(stack, 'Naked');
  if (acknowledge) {
    for (const id of ['AwsSolutions-S1', 'AwsSolutions-S10']) Validations.of(bucket).acknowledge({ id, reason: 'Test fixture: a bucket that breaks the rules on purpose.' });
  }
  addNagChecks(app);
  return stack;
}

describe('cdk-nag AwsSolutions', () => {
  it('fails synthesis on an unacknowledged finding', () => {
    // Prepare
    const stack = appWithNakedBucket(false);

    // Act
    const synth = () => Template.fromStack(stack);

    // Assess
    expect(synth).toThrow(/AwsSolutions-S1/);
  });

  it('lets an acknowledged finding through', () => {
    // Prepare
    const stack = appWithNakedBucket(true);

    // Act
    const template = Template.fromStack(stack);

    // Assess
    template.resourceCountIs('AWS::S3::Bucket', 1);
  });
});
