import { describe, expect, it } from 'vitest';
import { LocalFirewall } from '../../../bin/local/firewall.js';
import { LocalRateLimiter } from '../../../bin/local/rate-limiter.js';
import { EDGE_RULES, type EdgeRule } from '../../../shared/http/edge-rules.js';

const FIXED_NOW = () => 1_000_000;

function firewall(edgeRules: readonly EdgeRule[] = EDGE_RULES): LocalFirewall {
  const limiter = new LocalRateLimiter({ publicPerAddress: { rate: 1, burst: 2 }, loader: async () => undefined, now: FIXED_NOW });
  return new LocalFirewall(limiter, edgeRules);
}

/** An edge rule on a public path, so that one request can meet both kinds of rule. */
const SUBMISSION_RULE: EdgeRule = { ...EDGE_RULES[0]!, name: 'SubmissionTooLarge', path: '/forms/f1/responses', maxContentLength: 10 };

describe('LocalFirewall (the stage\'s web ACL, locally)', () => {
  it('refuses a single-request image above what Lambda can take with the edge rule, and lets a small one through', () => {
    // Prepare
    const local = firewall();
    const image = { method: 'POST', path: '/v1/assets/images', sourceIp: '10.0.0.1' };

    // Act
    const large = local.check({ ...image, contentLength: String(EDGE_RULES[0]!.maxContentLength + 1) });
    const unsized = local.check({ ...image, contentLength: undefined });
    const small = local.check({ ...image, contentLength: '1024' });

    // Assess
    expect(large).toEqual({ kind: 'edge_rule', rule: EDGE_RULES[0] });
    expect(unsized).toEqual({ kind: 'edge_rule', rule: EDGE_RULES[0] });
    expect(small).toBeUndefined();
  });

  it('limits each client address on the public paths only', () => {
    // Prepare
    const local = firewall();
    const listing = { method: 'GET', path: '/partner/events', contentLength: undefined };

    // Act
    const first = [1, 2, 3].map(() => local.check({ ...listing, sourceIp: '10.0.0.1' }));
    const otherAddress = local.check({ ...listing, sourceIp: '10.0.0.2' });
    const keyRoutes = [1, 2, 3].map(() => local.check({ method: 'GET', path: '/v1/events', sourceIp: '10.0.0.1', contentLength: undefined }));

    // Assess
    expect(first).toEqual([undefined, undefined, { kind: 'rate_limited', retryAfterSeconds: 1 }]);
    expect(otherAddress).toBeUndefined();
    expect(keyRoutes).toEqual([undefined, undefined, undefined]);
  });

  it('evaluates in the web ACL\'s priority order: the address limit first, and a request an edge rule refuses still counts toward it', () => {
    // Prepare
    const local = firewall([SUBMISSION_RULE]);
    const oversized = { method: 'POST', path: '/forms/f1/responses', sourceIp: '10.0.0.1', contentLength: '11' };

    // Act
    const verdicts = [1, 2, 3].map(() => local.check(oversized));
    const smallAfterwards = local.check({ ...oversized, contentLength: '5' });

    // Assess
    expect(verdicts.map((verdict) => verdict?.kind)).toEqual(['edge_rule', 'edge_rule', 'rate_limited']);
    expect(smallAfterwards).toEqual({ kind: 'rate_limited', retryAfterSeconds: 1 });
  });
});
