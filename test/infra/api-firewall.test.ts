import { beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_ERRORS, gatewayErrorBody } from '../../shared/http/gateway-responses.js';
import { EDGE_RULES, decimalAtMost } from '../../shared/http/edge-rules.js';
import { PUBLIC_ADDRESS_LIMITS, addressLimitedPathRegex } from '../../shared/http/rate-limits.js';
import { ADDRESS_RATE_RULE_NAME } from '../../lib/api-firewall.js';
import { refTarget, resourcesOf, synthesize, type SynthesizedApp } from './support/synth.js';

let app: SynthesizedApp;

beforeAll(() => {
  app = synthesize();
});

interface CustomResponse { ResponseCode: number; CustomResponseBodyKey: string; ResponseHeaders: { Name: string; Value: string }[] }

interface WafRule {
  Name: string;
  Priority: number;
  Action: { Block?: { CustomResponse?: CustomResponse } };
  Statement: { RateBasedStatement?: Record<string, unknown>; AndStatement?: unknown };
}

function webAcls(): [string, Record<string, unknown>][] {
  return Object.entries(resourcesOf(app.api, 'AWS::WAFv2::WebACL')).map(([id, resource]) => [id, resource.Properties]);
}

function webAcl(): { logicalId: string; properties: Record<string, unknown> } {
  const [entry] = webAcls();
  return { logicalId: entry![0], properties: entry![1] };
}

function rules(): WafRule[] {
  return webAcl().properties.Rules as WafRule[];
}

function ruleNamed(name: string): WafRule | undefined {
  return rules().find((rule) => rule.Name === name);
}

function responseBodies(): Record<string, { ContentType: string; Content: string }> {
  return webAcl().properties.CustomResponseBodies as Record<string, { ContentType: string; Content: string }>;
}

function headersOf(response: CustomResponse | undefined): Record<string, string> {
  return Object.fromEntries((response?.ResponseHeaders ?? []).map((header) => [header.Name, header.Value]));
}

describe('the stage\'s web ACL', () => {
  it('is one regional web ACL that lets everything else through, the only one associated with the API stage', () => {
    // Prepare
    const stageId = Object.keys(resourcesOf(app.api, 'AWS::ApiGateway::Stage'))[0] as string;
    const associations = Object.values(resourcesOf(app.api, 'AWS::WAFv2::WebACLAssociation'));

    // Assess
    expect(webAcls()).toHaveLength(1);
    expect(webAcl().properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    expect(associations).toHaveLength(1);
    expect(refTarget(associations[0]!.Properties.WebACLArn)).toBe(webAcl().logicalId);
    expect(JSON.stringify(associations[0]!.Properties.ResourceArn)).toContain(`"${stageId}"`);
  });

  it('holds the per-address rate rule first, then every edge rule in its order, with distinct priorities', () => {
    // Act
    const ordered = [...rules()].sort((a, b) => a.Priority - b.Priority).map((rule) => rule.Name);

    // Assess
    expect(ordered).toEqual([ADDRESS_RATE_RULE_NAME, ...EDGE_RULES.map((rule) => rule.name)]);
    expect(new Set(rules().map((rule) => rule.Priority)).size).toBe(rules().length);
    expect(Object.keys(responseBodies()).sort()).toEqual([ADDRESS_RATE_RULE_NAME, ...EDGE_RULES.map((rule) => rule.name)].sort());
  });
});

describe('rate-based rule on the public routes', () => {
  it('counts per client address over 60 s, 20 requests/s on average, only on /partner/events and /forms/... of the stage', () => {
    // Act
    const statement = ruleNamed(ADDRESS_RATE_RULE_NAME)?.Statement.RateBasedStatement;

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

  it('answers 429 rate_limited with Retry-After, CORS and the security headers, as the gateway\'s own 429 reads', () => {
    // Act
    const response = ruleNamed(ADDRESS_RATE_RULE_NAME)?.Action.Block?.CustomResponse;

    // Assess
    expect(response?.ResponseCode).toBe(429);
    expect(responseBodies()[response!.CustomResponseBodyKey]).toEqual({ ContentType: 'APPLICATION_JSON', Content: gatewayErrorBody(GATEWAY_ERRORS.THROTTLED) });
    expect(headersOf(response)).toEqual({
      'Retry-After': '60',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'X-Request-Id, Retry-After, Idempotent-Replayed',
      'X-Content-Type-Options': 'nosniff',
      'Strict-Transport-Security': expect.stringContaining('max-age='),
    });
  });
});

describe('edge rules (bodies Lambda could not take)', () => {
  it.each(EDGE_RULES.map((rule) => [rule.name, rule] as const))('%s answers its status, body and the gateway error headers', (name, rule) => {
    // Act
    const found = ruleNamed(name);
    const response = found?.Action.Block?.CustomResponse;

    // Assess
    expect(response?.ResponseCode).toBe(rule.status);
    expect(responseBodies()[response!.CustomResponseBodyKey]?.Content).toBe(rule.body);
    // The headers of every gateway error response: a browser can read the 413, nosniff and HSTS apply.
    expect(headersOf(response)).toMatchObject({
      'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff', 'Strict-Transport-Security': expect.stringContaining('max-age='),
    });
    expect(JSON.stringify(found?.Statement.AndStatement)).toContain(JSON.stringify(decimalAtMost(rule.maxContentLength)).slice(1, -1));
    expect(JSON.stringify(found?.Statement.AndStatement)).toContain(`"SearchString":"${rule.method}"`);
  });
});
