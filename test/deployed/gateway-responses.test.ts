import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GATEWAY_ERRORS, type GatewayErrorDefinition } from '../../shared/http/gateway-responses.js';
import { deployAssembly, type DeployedApi, type DeployOptions } from './support/deployed-api.js';
import type { StackArtifact } from './support/deployment.js';
import { RESPONSE_TYPE_STATUS, type GatewayRequest } from './support/gateway.js';
import { createDeployedTenants, uniqueCode, type Tenant } from './support/tenants.js';

// What API Gateway answers by itself, end to end through the template's gateway responses: each type
// keeps its status, and a browser on a partner's site can read it (CORS) on the public routes.
const SITE = { Origin: 'https://partner-site.example' };

function apiStack(stacks: Map<string, StackArtifact>): StackArtifact {
  return [...stacks.values()].find((stack) => stack.stackName.endsWith('-Api')) as StackArtifact;
}

async function deployWith(mutate: DeployOptions['mutate']): Promise<{ deployed: DeployedApi; tenant: Tenant }> {
  const deployed = await deployAssembly({ assemblyDir: inject('assemblyDir'), dynamoEndpoint: inject('dynamoEndpoint'), mutate });
  const table = [...deployed.tables.entries()].find(([logicalId]) => logicalId.startsWith('Table'))?.[1] as string;
  const [tenant] = await createDeployedTenants(table, inject('dynamoEndpoint'), ['gateway responses'], [uniqueCode('GW')]);
  return { deployed, tenant: tenant! };
}

function expectReadableCrossOrigin(response: Response): void {
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('access-control-expose-headers')).toBe('X-Request-Id, Retry-After, Idempotent-Replayed');
  expect(response.headers.get('x-request-id')).toBeTruthy();
}

describe('gateway responses, deployed: a stage throttled to 1 request per second', () => {
  let throttled: { deployed: DeployedApi; tenant: Tenant };

  beforeAll(async () => {
    throttled = await deployWith((stacks) => {
      for (const resource of Object.values(apiStack(stacks).template.Resources)) {
        if (resource.Type !== 'AWS::ApiGateway::Stage') continue;
        for (const setting of (resource.Properties?.MethodSettings as Record<string, unknown>[] | undefined) ?? []) {
          if (setting.ThrottlingRateLimit === undefined) continue;
          setting.ThrottlingRateLimit = 1;
          setting.ThrottlingBurstLimit = 1;
        }
      }
    });
  });
  afterAll(async () => throttled?.deployed.close());

  it('answers a partner page over the limit 429 rate_limited with Retry-After, readable cross-origin', async () => {
    // Act
    const url = `${throttled.deployed.url}/partner/events?referral_code=${throttled.tenant.partnerCode}`;
    const responses = [];
    for (let i = 0; i < 3; i += 1) responses.push(await fetch(url, { headers: SITE }));
    const limited = responses.find((response) => response.status === 429);

    // Assess
    expect(limited).toBeDefined();
    expectReadableCrossOrigin(limited!);
    expect(limited!.headers.get('retry-after')).toBe('1');
    expect(await limited!.json()).toEqual({ error: { code: 'rate_limited', message: GATEWAY_ERRORS.THROTTLED.message } });
  });

  it('keeps every gateway response type\'s own status unless the contract sets one, always with CORS', () => {
    // Prepare
    const request: GatewayRequest = {
      method: 'GET', path: '/dev/partner/events', query: new URLSearchParams(), headers: SITE, multiValueHeaders: {}, body: Buffer.alloc(0), sourceIp: '127.0.0.1', requestId: 'req-1',
    };
    const configured = GATEWAY_ERRORS as Record<string, GatewayErrorDefinition>;

    // Act
    const answers = Object.keys(RESPONSE_TYPE_STATUS).map((type) => [type, throttled.deployed.gateway.gatewayError(type, request)] as const);

    // Assess
    for (const [type, answer] of answers) {
      expect({ type, status: answer.status }).toEqual({ type, status: configured[type]?.statusCode ?? RESPONSE_TYPE_STATUS[type] });
      expect(answer.headers['Access-Control-Allow-Origin']).toBe('*');
      expect(answer.headers['X-Request-Id']).toBe('req-1');
    }
    expect(answers.find(([type]) => type === 'INTEGRATION_TIMEOUT')?.[1].status).toBe(504);
  });
});

describe('gateway responses, deployed: a function that fails', () => {
  it('answers the failure\'s own 502 on a public route (not a forced 500), readable cross-origin, without internals', async () => {
    // Prepare: the partner function's handler points at an export its bundle does not have.
    const { deployed, tenant } = await deployWith((stacks) => {
      for (const resource of Object.values(apiStack(stacks).template.Resources)) {
        const variables = (resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
        if (resource.Type === 'AWS::Lambda::Function' && variables?.POWERTOOLS_SERVICE_NAME === 'boxoffice-partner') resource.Properties!.Handler = 'index.missing';
      }
    });
    try {
      // Act
      const response = await fetch(`${deployed.url}/partner/events?referral_code=${tenant.partnerCode}`, { headers: SITE });

      // Assess
      expect(response.status).toBe(502);
      expectReadableCrossOrigin(response);
      expect(await response.json()).toEqual({ error: { code: 'internal_error', message: GATEWAY_ERRORS.DEFAULT_5XX.message } });
    } finally {
      await deployed.close();
    }
  });
});
