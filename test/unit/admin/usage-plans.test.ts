import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import {
  APIGatewayClient, ConflictException, CreateApiKeyCommand, CreateUsagePlanCommand, CreateUsagePlanKeyCommand, GetApiKeysCommand,
  GetUsagePlansCommand, UpdateUsagePlanCommand,
} from '@aws-sdk/client-api-gateway';
import { applyUsagePlan, stageTargetFromEnv } from '../../../bin/admin/usage-plans.js';
import { usagePlanKeyOf, usagePlanNameOf } from '../../../shared/auth/usage-plan-keys.js';

const gateway = mockClient(APIGatewayClient);
const client = new APIGatewayClient({ region: 'us-east-1' });
const TARGET = { restApiId: 'api123', stage: 'prod' };
const WS = '6740f1a2c3d4e5f601234567';

beforeEach(() => gateway.reset());

describe('applyUsagePlan', () => {
  it('gives a new workspace its API key and its own usage plan on the stage, with its limits', async () => {
    // Prepare
    gateway.on(GetApiKeysCommand).resolves({ items: [] });
    gateway.on(CreateApiKeyCommand).resolves({ id: 'key1' });
    gateway.on(GetUsagePlansCommand).resolves({ items: [{ id: 'other', name: 'someone-else' }] });
    gateway.on(CreateUsagePlanCommand).resolves({ id: 'plan1' });
    gateway.on(CreateUsagePlanKeyCommand).resolves({});

    // Act
    const applied = await applyUsagePlan(client, TARGET, WS, { rate: 100, burst: 200 });

    // Assess
    expect(applied).toEqual({ apiKeyId: 'key1', usagePlanId: 'plan1', created: true });
    expect(gateway.commandCalls(CreateApiKeyCommand)[0]!.args[0].input).toMatchObject({ ...usagePlanKeyOf('prod', WS), enabled: true });
    expect(gateway.commandCalls(CreateUsagePlanCommand)[0]!.args[0].input).toMatchObject({
      name: usagePlanNameOf('prod', WS),
      throttle: { rateLimit: 100, burstLimit: 200 },
      apiStages: [{ apiId: 'api123', stage: 'prod' }],
    });
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input).toEqual({ usagePlanId: 'plan1', keyId: 'key1', keyType: 'API_KEY' });
  });

  it('changes the limits of an existing plan in place (no moment without a plan)', async () => {
    // Prepare
    gateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'key1', name: usagePlanKeyOf('prod', WS).name }] });
    gateway.on(GetUsagePlansCommand).resolves({ items: [{ id: 'plan1', name: usagePlanNameOf('prod', WS), apiStages: [{ apiId: 'api123', stage: 'prod' }] }] });
    gateway.on(UpdateUsagePlanCommand).resolves({});
    gateway.on(CreateUsagePlanKeyCommand).rejects(new ConflictException({ message: 'already in the plan', $metadata: {} }));

    // Act
    const applied = await applyUsagePlan(client, TARGET, WS, { rate: 2.5, burst: 5 });

    // Assess
    expect(applied).toEqual({ apiKeyId: 'key1', usagePlanId: 'plan1', created: false });
    expect(gateway.commandCalls(CreateApiKeyCommand)).toHaveLength(0);
    expect(gateway.commandCalls(CreateUsagePlanCommand)).toHaveLength(0);
    expect(gateway.commandCalls(UpdateUsagePlanCommand)[0]!.args[0].input).toEqual({
      usagePlanId: 'plan1',
      patchOperations: [
        { op: 'replace', path: '/throttle/rateLimit', value: '2.5' },
        { op: 'replace', path: '/throttle/burstLimit', value: '5' },
      ],
    });
  });

  it('finishes what an interrupted run left: a plan without the stage gets it, a key not yet in the plan is added', async () => {
    // Prepare
    gateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'key1', name: usagePlanKeyOf('prod', WS).name }] });
    gateway.on(GetUsagePlansCommand)
      .resolvesOnce({ items: [{ id: 'p0', name: 'unrelated' }], position: 'next' })
      .resolvesOnce({ items: [{ id: 'plan1', name: usagePlanNameOf('prod', WS), apiStages: [] }] });
    gateway.on(UpdateUsagePlanCommand).resolves({});
    gateway.on(CreateUsagePlanKeyCommand).resolves({});

    // Act
    await applyUsagePlan(client, TARGET, WS, { rate: 100, burst: 200 });

    // Assess
    expect(gateway.commandCalls(GetUsagePlansCommand)).toHaveLength(2);
    expect(gateway.commandCalls(UpdateUsagePlanCommand)[0]!.args[0].input.patchOperations).toContainEqual({ op: 'add', path: '/apiStages', value: 'api123:prod' });
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand)).toHaveLength(1);
  });

  it('does not take another key whose name merely contains the workspace\'s', async () => {
    gateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'longer', name: `${usagePlanKeyOf('prod', WS).name}-copy` }] });
    gateway.on(CreateApiKeyCommand).resolves({ id: 'key1' });
    gateway.on(GetUsagePlansCommand).resolves({ items: [] });
    gateway.on(CreateUsagePlanCommand).resolves({ id: 'plan1' });
    gateway.on(CreateUsagePlanKeyCommand).resolves({});
    expect((await applyUsagePlan(client, TARGET, WS, { rate: 1, burst: 1 })).apiKeyId).toBe('key1');
  });

  it('surfaces any other failure', async () => {
    gateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'key1', name: usagePlanKeyOf('prod', WS).name }] });
    gateway.on(GetUsagePlansCommand).resolves({ items: [] });
    gateway.on(CreateUsagePlanCommand).resolves({ id: 'plan1' });
    gateway.on(CreateUsagePlanKeyCommand).rejects(new Error('AccessDenied'));
    await expect(applyUsagePlan(client, TARGET, WS, { rate: 1, burst: 1 })).rejects.toThrow('AccessDenied');
  });
});

describe('stageTargetFromEnv', () => {
  it('reads REST_API_ID and API_STAGE, and needs both', () => {
    expect(stageTargetFromEnv({ REST_API_ID: 'api123', API_STAGE: 'prod' })).toEqual(TARGET);
    expect(stageTargetFromEnv({ REST_API_ID: 'api123' })).toBeUndefined();
    expect(stageTargetFromEnv({})).toBeUndefined();
  });
});
