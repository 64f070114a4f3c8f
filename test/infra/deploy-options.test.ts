import { beforeAll, describe, expect, it } from 'vitest';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { resourcesOf, synthesize } from './support/synth.js';

/** The warnings synth (and so `cdk deploy`) prints for the Api stack. */
function warningsOf(app: ReturnType<typeof synthesize>): string[] {
  return Annotations.fromStack(app.stacks.api).findWarning('*', Match.anyValue()).map((entry) => String(entry.entry.data));
}

const canaries = (app: ReturnType<typeof synthesize>) => Object.keys(resourcesOf(app.api, 'AWS::Synthetics::Canary'));

// A few seconds per synth: each app is built once and read by several tests.
let dev: ReturnType<typeof synthesize>;
let prod: ReturnType<typeof synthesize>;

beforeAll(() => {
  dev = synthesize({ stage: 'dev' });
  prod = synthesize({ stage: 'prod', alarmEmail: 'ops@example.com' });
});

describe('deploy options', () => {
  it('warns loudly, with the alarm count and the fix, when no alarm email is given', () => {
    // Assess
    const warning = warningsOf(dev).find((text) => text.includes('NO ALARM EMAIL'));
    expect(warning).toMatch(/the \d+ alarms of stage "dev" notify an SNS topic nobody is subscribed to/);
    expect(warning).toContain('-c alarmEmail=');
    expect(Object.keys(resourcesOf(dev.api, 'AWS::SNS::Subscription'))).toEqual([]);
  });

  it('does not warn when alarms go to an email', () => {
    // Assess
    expect(warningsOf(prod).filter((text) => text.includes('NO ALARM EMAIL'))).toEqual([]);
  });

  it('keeps the /health canary to stages that ask for it: prod by default, others with canary=true', () => {
    // Act
    const devWith = synthesize({ stage: 'dev', healthCanary: true });
    // Assess
    expect(canaries(dev)).toEqual([]);
    expect(canaries(prod)).toHaveLength(1);
    expect(canaries(devWith)).toHaveLength(1);
  });
});
