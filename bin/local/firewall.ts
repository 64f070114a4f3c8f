import { EDGE_RULES, refusingEdgeRule, type EdgeRule } from '../../shared/http/edge-rules.js';
import type { LocalRateLimiter } from './rate-limiter.js';

/** What the firewall answers instead of the API: a 429 with its wait, or an edge rule's answer. */
export type FirewallVerdict =
  | { readonly kind: 'rate_limited'; readonly retryAfterSeconds: number }
  | { readonly kind: 'edge_rule'; readonly rule: EdgeRule };

export interface FirewallRequest {
  readonly method: string;
  /** The path as routed (no stage). */
  readonly path: string;
  readonly sourceIp: string;
  /** The raw `Content-Length` header, if any. */
  readonly contentLength: string | undefined;
}

/**
 * The stage's web ACL as the local server applies it, before routing and for any method (deployed,
 * WAF answers before API Gateway sees the request), in the web ACL's priority order
 * (lib/api-firewall.ts): the per-address rate limit of the public routes, then the edge rules. The
 * first rule that blocks answers; a request to a public path counts toward its address even when an
 * edge rule then refuses it, as WAF's rate-based rule counts it.
 */
export class LocalFirewall {
  constructor(private readonly limiter: LocalRateLimiter, private readonly edgeRules: readonly EdgeRule[] = EDGE_RULES) {}

  /** The verdict for this request, or undefined to let it through to the API. */
  check(request: FirewallRequest): FirewallVerdict | undefined {
    const wait = this.limiter.checkAddress(request.path, request.sourceIp);
    if (wait !== undefined) return { kind: 'rate_limited', retryAfterSeconds: wait };
    const rule = refusingEdgeRule(request.method, request.path, request.contentLength, this.edgeRules);
    return rule ? { kind: 'edge_rule', rule } : undefined;
  }
}
