import { beforeAll, describe, expect, inject, it } from 'vitest';
import { EDGE_RULES } from '../../shared/http/edge-rules.js';
import { PUBLIC_ADDRESS_LIMITS, wafWindowLimit } from '../../shared/http/rate-limits.js';
import { readAssembly } from './support/deployment.js';
import { resourcesOfType } from './support/template.js';
import { TemplateWaf, type WafRequest } from './support/waf.js';

// The stage's one web ACL, read from the synthesized template as the tier's gateway reads it: the
// per-address rate rule of the public routes and the edge rules, evaluated by priority.
let waf: TemplateWaf;
let stage: string;
let now = 1_000_000;

beforeAll(() => {
  const api = [...readAssembly(inject('assemblyDir')).values()].find((stack) => stack.stackName.endsWith('-Api'));
  const [[stageId, stageResource] = []] = resourcesOfType(api!.template, 'AWS::ApiGateway::Stage');
  stage = String(stageResource?.Properties?.StageName);
  waf = new TemplateWaf(api!.template, stageId as string, () => now);
});

function request(overrides: Partial<WafRequest>): WafRequest {
  return { method: 'GET', uriPath: `/${stage}/partner/events`, headers: {}, sourceIp: '198.51.100.7', ...overrides };
}

describe('the web ACL of the deployed stage (WAF stand-in)', () => {
  it('lets an address make the rate rule\'s limit of public requests in its window, then answers 429 with WAF\'s Retry-After, readable cross-origin', () => {
    // Prepare
    const limit = wafWindowLimit(PUBLIC_ADDRESS_LIMITS);
    const address = '198.51.100.7';

    // Act
    const allowed = Array.from({ length: limit }, () => waf.evaluate(request({ sourceIp: address })));
    // Encoded and doubled slashes reach the same route: WAF's URL_DECODE and NORMALIZE_PATH see through them.
    const disguised = waf.evaluate(request({ sourceIp: address, uriPath: `/${stage}//%66orms/f1/responses`, method: 'POST' }));
    const otherAddress = waf.evaluate(request({ sourceIp: '198.51.100.8' }));
    const keyRoute = waf.evaluate(request({ sourceIp: address, uriPath: `/${stage}/v1/events` }));
    now += 61_000;
    const nextWindow = waf.evaluate(request({ sourceIp: address }));

    // Assess
    expect(allowed.filter((answer) => answer !== undefined)).toEqual([]);
    expect(disguised?.status).toBe(429);
    expect(disguised?.headers).toMatchObject({ 'Retry-After': '60', 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' });
    expect(JSON.parse(disguised!.body.toString())).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    expect(otherAddress).toBeUndefined();
    expect(keyRoute).toBeUndefined();
    expect(nextWindow).toBeUndefined();
  });

  it('answers a single-request image above what Lambda can take 413 from the same web ACL', () => {
    // Prepare
    const [rule] = EDGE_RULES;
    const image = request({ method: rule!.method, uriPath: `/${stage}${rule!.path}`, sourceIp: '203.0.113.9' });

    // Act
    const large = waf.evaluate({ ...image, headers: { 'Content-Length': String(rule!.maxContentLength + 1) } });
    const small = waf.evaluate({ ...image, headers: { 'Content-Length': '2048' } });

    // Assess
    expect(large?.status).toBe(413);
    expect(large?.body.toString()).toBe(rule!.body);
    expect(small).toBeUndefined();
  });
});
