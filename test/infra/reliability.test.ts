import { beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_RESERVE_MS, DYNAMO_LIMITS, FUNCTION_TIMEOUT_MS, worstCaseCallMs } from '../../shared/db/time-budget.js';
import { refTarget, resourcesOf, synthesize, type SynthesizedApp } from './support/synth.js';

let app: SynthesizedApp;

type LambdaResource = { logicalId: string; service: string; timeoutSeconds: number };

function lambdas(): LambdaResource[] {
  return Object.entries(resourcesOf(app.api, 'AWS::Lambda::Function')).flatMap(([logicalId, resource]) => {
    const variables = (resource.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
    const service = variables.POWERTOOLS_SERVICE_NAME;
    return typeof service === 'string' ? [{ logicalId, service, timeoutSeconds: resource.Properties.Timeout as number }] : [];
  });
}

beforeAll(() => {
  app = synthesize();
});

describe('time budget', () => {
  it('fits a DynamoDB call with every attempt timing out and every retry pause, plus the answer, in the shortest function timeout', () => {
    // Assess: attempts x request timeout + pauses < authorizer timeout (the shortest), with room to answer.
    expect(DYNAMO_LIMITS.maxAttempts * DYNAMO_LIMITS.requestTimeoutMs).toBeLessThan(FUNCTION_TIMEOUT_MS.authorizer);
    expect(worstCaseCallMs() + ANSWER_RESERVE_MS).toBeLessThan(Math.min(...Object.values(FUNCTION_TIMEOUT_MS)));
  });

  it('deploys every function with the timeout of the budget: API functions, the authorizer, the reconciler, the event end sweeper, webhook delivery and business metrics', () => {
    // Act
    const functions = lambdas();
    const timeoutOf = (service: string) => functions.find((fn) => fn.service === service)?.timeoutSeconds;

    // Assess
    expect(timeoutOf('boxoffice-authorizer')).toBe(FUNCTION_TIMEOUT_MS.authorizer / 1000);
    expect(timeoutOf('boxoffice-refund-reconciler')).toBe(FUNCTION_TIMEOUT_MS.reconciler / 1000);
    expect(timeoutOf('boxoffice-webhook-dispatcher')).toBe(FUNCTION_TIMEOUT_MS.webhookDispatcher / 1000);
    expect(timeoutOf('boxoffice-webhook-sender')).toBe(FUNCTION_TIMEOUT_MS.webhookSender / 1000);
    expect(timeoutOf('boxoffice-event-end-sweeper')).toBe(FUNCTION_TIMEOUT_MS.sweeper / 1000);
    expect(timeoutOf('boxoffice-business-metrics')).toBe(FUNCTION_TIMEOUT_MS.businessMetrics / 1000);
    const background = ['boxoffice-authorizer', 'boxoffice-refund-reconciler', 'boxoffice-webhook-dispatcher', 'boxoffice-webhook-sender', 'boxoffice-event-end-sweeper', 'boxoffice-business-metrics'];
    const api = functions.filter((fn) => !background.includes(fn.service));
    expect(api.length).toBeGreaterThan(5);
    for (const fn of api) expect(fn.timeoutSeconds, fn.service).toBe(FUNCTION_TIMEOUT_MS.api / 1000);
    // API Gateway gives up at 29 s: a function must answer before that, never the gateway.
    expect(FUNCTION_TIMEOUT_MS.api).toBeLessThan(29_000);
  });
});

describe('refund reconciler', () => {
  it('runs every minute from an EventBridge schedule that targets the reconciler function, retried on failure', () => {
    // Prepare
    const reconciler = lambdas().find((fn) => fn.service === 'boxoffice-refund-reconciler');
    const rules = Object.values(resourcesOf(app.api, 'AWS::Events::Rule'));

    // Assess
    const scheduled = rules.filter((rule) => rule.Properties.ScheduleExpression === 'rate(1 minute)'
      && (rule.Properties.Targets as { Arn: unknown }[]).some((target) => refTarget(target.Arn) === reconciler?.logicalId));
    expect(scheduled).toHaveLength(1);
    const targets = scheduled[0]?.Properties.Targets as { Arn: unknown; RetryPolicy?: { MaximumRetryAttempts?: number } }[];
    expect(targets.map((target) => refTarget(target.Arn))).toEqual([reconciler?.logicalId]);
    expect(targets[0]?.RetryPolicy?.MaximumRetryAttempts).toBeGreaterThan(0);
    const permissions = Object.values(resourcesOf(app.api, 'AWS::Lambda::Permission'))
      .filter((permission) => permission.Properties.Principal === 'events.amazonaws.com');
    expect(permissions.map((permission) => refTarget(permission.Properties.FunctionName))).toContain(reconciler?.logicalId);
  });

  it('may read and write the table but never Scan it, and has no access to the idempotency table', () => {
    // Prepare
    const reconciler = lambdas().find((fn) => fn.service === 'boxoffice-refund-reconciler');
    const roleId = refTarget(resourcesOf(app.api, 'AWS::Lambda::Function')[reconciler?.logicalId ?? '']?.Properties.Role);
    const statements = Object.values(resourcesOf(app.api, 'AWS::IAM::Policy'))
      .filter((policy) => (policy.Properties.Roles as unknown[]).some((role) => refTarget(role) === roleId))
      .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: { Effect: string; Action: string | string[]; Resource: unknown }[] }).Statement)
      .filter((statement) => statement.Effect === 'Allow');
    const actions = statements.flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]));

    // Assess
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem']));
    expect(actions).not.toContain('dynamodb:Scan');
    expect(JSON.stringify(statements)).not.toMatch(/Idempotency/i);
  });
});
