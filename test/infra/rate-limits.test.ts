import { beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_ERRORS, gatewayErrorBody } from '../../shared/http/gateway-responses.js';
import { PUBLIC_ADDRESS_LIMITS, addressLimitedPathRegex } from '../../shared/http/rate-limits.js';
import { routeTable } from '../../shared/http/routes.js';
import { ADDRESS_RATE_RULE_NAME } from '../../lib/address-rate-limit.js';
import { apiMethods, refTarget, resourcesOf, synthesize, type SynthMethod, type SynthesizedApp } from './support/synth.js';

let app: SynthesizedApp;
let methods: SynthMethod[];

beforeAll(() => {
  app = synthesize();
  methods = apiMethods(app.api);
});

function methodOf(path: string, httpMethod: string): SynthMethod | undefined {
  return methods.find((method) => method.path === path && method.httpMethod === httpMethod);
}

interface WafRule {
  Name: string;
  Priority: number;
  Action: { Block?: { CustomResponse?: { ResponseCode: number; CustomResponseBodyKey: string; ResponseHeaders: { Name: string; Value: string }[] } } };
  Statement: { RateBasedStatement?: Record<string, unknown> };
}

function webAcl(): { logicalId: string; properties: Record<string, unknown> } {
  const [entry] = Object.entries(resourcesOf(app.api, 'AWS::WAFv2::WebACL'));
  return { logicalId: entry![0], properties: entry![1].Properties };
}

function addressRule(): WafRule | undefined {
  return (webAcl().properties.Rules as WafRule[]).find((rule) => rule.Name === ADDRESS_RATE_RULE_NAME);
}

describe('usage plans per workspace', () => {
  it('takes API keys from the authorizer (usageIdentifierKey), never from a client header', () => {
    app.api.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
  });

  it.each(routeTable.filter((route) => route.auth === 'key').map((route) => [route.method, route.path] as const))(
    '%s %s requires the workspace\'s usage plan key',
    (httpMethod, path) => {
      expect(methodOf(path, httpMethod)?.properties.ApiKeyRequired).toBe(true);
    },
  );

  it('requires no usage plan key on public routes, preflights and 405 answers (they have no workspace)', () => {
    // Prepare
    const keyRoutes = new Set(routeTable.filter((route) => route.auth === 'key').map((route) => `${route.method} ${route.path}`));

    // Act
    const others = methods.filter((method) => !keyRoutes.has(`${method.httpMethod} ${method.path}`));

    // Assess
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((method) => method.properties.ApiKeyRequired === true).map((method) => `${method.httpMethod} ${method.path}`)).toEqual([]);
  });

  it('outputs the API id and stage the admin CLI needs to manage the plans', () => {
    app.api.hasOutput('RestApiId', {});
    app.api.hasOutput('StageName', {});
  });

  it('keeps a stage ceiling for all clients together, above a workspace\'s default limits', () => {
    app.api.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [{ ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000, HttpMethod: '*', ResourcePath: '/*', LoggingLevel: 'ERROR', DataTraceEnabled: false, MetricsEnabled: true }],
    });
  });
});

describe('WAF rate-based rule on the public routes', () => {
  it('is in a regional web ACL that lets everything else through, associated with the API stage', () => {
    // Prepare
    const stageId = Object.keys(resourcesOf(app.api, 'AWS::ApiGateway::Stage'))[0] as string;
    const associations = Object.values(resourcesOf(app.api, 'AWS::WAFv2::WebACLAssociation'));

    // Assess
    expect(webAcl().properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    expect(associations).toHaveLength(1);
    expect(refTarget(associations[0]!.Properties.WebACLArn)).toBe(webAcl().logicalId);
    expect(JSON.stringify(associations[0]!.Properties.ResourceArn)).toContain(`"${stageId}"`);
  });

  it('counts per client address over 60 s, 20 requests/s on average, only on /partner/events and /forms/... of the stage', () => {
    // Act
    const statement = addressRule()?.Statement.RateBasedStatement;

    // Assess
    expect(statement).toEqual({
      AggregateKeyType: 'IP',
      EvaluationWindowSec: 60,
      Limit: PUBLIC_ADDRESS_LIMITS.rate * 60,
      ScopeDownStatement: {
        RegexMatchStatement: {
          FieldToMatch: { UriPath: {} },
          RegexString: addressLimitedPathRegex('test'),
          TextTransformations: [{ Priority: 0, Type: 'URL_DECODE' }, { Priority: 1, Type: 'NORMALIZE_PATH' }],
        },
      },
    });
    const regex = new RegExp(addressLimitedPathRegex('test'));
    expect(regex.test('/test/forms/abc/responses')).toBe(true);
    expect(regex.test('/test/partner/events')).toBe(true);
    expect(regex.test('/test/v1/forms/abc')).toBe(false);
  });

  it('answers 429 rate_limited with Retry-After and CORS, as the gateway\'s own 429 reads', () => {
    // Act
    const response = addressRule()?.Action.Block?.CustomResponse;
    const bodies = webAcl().properties.CustomResponseBodies as Record<string, { ContentType: string; Content: string }>;

    // Assess
    expect(response?.ResponseCode).toBe(429);
    expect(bodies[response!.CustomResponseBodyKey]).toEqual({ ContentType: 'APPLICATION_JSON', Content: gatewayErrorBody(GATEWAY_ERRORS.THROTTLED) });
    const headers = Object.fromEntries(response!.ResponseHeaders.map((header) => [header.Name, header.Value]));
    expect(headers).toEqual({ 'Retry-After': '60', 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'X-Request-Id, Retry-After' });
  });
});
