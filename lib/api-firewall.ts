import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { GATEWAY_ERRORS, gatewayErrorBody, gatewayErrorHeaders } from '../shared/http/gateway-responses.js';
import { ADDRESS_RATE_RULE_PRIORITY, FIRST_EDGE_RULE_PRIORITY, decimalAtMost, type EdgeRule } from '../shared/http/edge-rules.js';
import {
  PUBLIC_ADDRESS_LIMITS, WAF_EVALUATION_WINDOW_SECONDS, WAF_RETRY_AFTER_SECONDS, addressLimitedPathRegex, wafWindowLimit, type RateLimit,
} from '../shared/http/rate-limits.js';

/** Name of the rate-based rule and of its response body in the web ACL. */
export const ADDRESS_RATE_RULE_NAME = 'public-routes-per-address';

const NO_TRANSFORMATION = [{ priority: 0, type: 'NONE' }];

type Visibility = (name: string) => CfnWebACL.VisibilityConfigProperty;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A Block with a custom response; headers are sent as named (WAF prefixes only headers it inserts into requests). */
function blockWith(status: number, bodyKey: string, headers: Record<string, string>): CfnWebACL.RuleActionProperty {
  return {
    block: {
      customResponse: {
        responseCode: status,
        customResponseBodyKey: bodyKey,
        responseHeaders: Object.entries(headers).map(([name, value]) => ({ name, value })),
      },
    },
  };
}

/**
 * The rate-based rule limiting each client address on the public routes (`/partner/events`,
 * `/forms/...`), and the 429 it answers. A WAF custom response replaces the gateway's whole answer,
 * so it carries the same body and headers as API Gateway's THROTTLED response (CORS, so a browser on
 * a partner's site can read it; nosniff, HSTS), with WAF's real `Retry-After`.
 */
function addressRateLimitRule(stage: string, limit: RateLimit, visibility: Visibility): CfnWebACL.RuleProperty {
  const headers = { ...gatewayErrorHeaders(GATEWAY_ERRORS.THROTTLED), 'Retry-After': String(WAF_RETRY_AFTER_SECONDS) };
  return {
    name: ADDRESS_RATE_RULE_NAME,
    priority: ADDRESS_RATE_RULE_PRIORITY,
    action: blockWith(GATEWAY_ERRORS.THROTTLED.statusCode, ADDRESS_RATE_RULE_NAME, headers),
    statement: {
      rateBasedStatement: {
        aggregateKeyType: 'IP',
        evaluationWindowSec: WAF_EVALUATION_WINDOW_SECONDS,
        limit: wafWindowLimit(limit),
        scopeDownStatement: {
          regexMatchStatement: {
            fieldToMatch: { uriPath: {} },
            regexString: addressLimitedPathRegex(stage),
            // Matched on the path as API Gateway routes it: `%66orms` or `//forms` must not slip past.
            textTransformations: [{ priority: 0, type: 'URL_DECODE' }, { priority: 1, type: 'NORMALIZE_PATH' }],
          },
        },
      },
    },
    visibilityConfig: visibility(ADDRESS_RATE_RULE_NAME),
  };
}

/** An edge rule: the method, the path and a `Content-Length` above the limit (or none) get the rule's answer. */
function edgeRule(rule: EdgeRule, priority: number, visibility: Visibility): CfnWebACL.RuleProperty {
  return {
    name: rule.name,
    priority,
    action: blockWith(rule.status, rule.name, rule.headers),
    visibilityConfig: visibility(rule.name),
    statement: {
      andStatement: {
        statements: [
          { byteMatchStatement: { fieldToMatch: { method: {} }, positionalConstraint: 'EXACTLY', searchString: rule.method, textTransformations: NO_TRANSFORMATION } },
          // The URI path WAF sees carries the stage (`/dev/v1/...`), or none behind a custom domain.
          { regexMatchStatement: { fieldToMatch: { uriPath: {} }, regexString: `^(/[^/]+)?${escapeRegex(rule.path)}/?$`, textTransformations: NO_TRANSFORMATION } },
          // Refused unless Content-Length is present and at most the limit (WAF compares text, digit by digit).
          { notStatement: { statement: { regexMatchStatement: { fieldToMatch: { singleHeader: { Name: 'content-length' } }, regexString: decimalAtMost(rule.maxContentLength), textTransformations: NO_TRANSFORMATION } } } },
        ],
      },
    },
  };
}

export interface ApiFirewallProps {
  readonly stage: Stage;
  /** The stage's name as a literal (the Stage construct's is a token): the rate rule's path pattern names it. */
  readonly stageName: string;
  /** Requests refused before routing, for bodies Lambda could not take (shared/http/edge-rules.ts). */
  readonly edgeRules: readonly EdgeRule[];
  /** Prefix of the CloudWatch metric names. */
  readonly metricPrefix: string;
  /** Per-address limit on the public routes. @default PUBLIC_ADDRESS_LIMITS (20 requests/s) */
  readonly addressLimit?: RateLimit;
}

/**
 * The one regional AWS WAF web ACL of the API stage (a stage takes one web ACL). Requests pass unless
 * a rule blocks them; WAF evaluates by priority and the first Block answers with its custom response
 * (which takes precedence over API Gateway's gateway responses):
 * 1. the per-address rate limit of the public routes (429), first so that every request to a public
 *    path counts toward its address whatever a later rule does;
 * 2. the edge rules, in their order: 413 for bodies that would reach Lambda too large to invoke.
 * The local server applies the same rules in the same order (bin/local/firewall.ts).
 */
export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    const visibility: Visibility = (name) => ({ cloudWatchMetricsEnabled: true, metricName: `${props.metricPrefix}-${name}`, sampledRequestsEnabled: true });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('web-acl'),
      customResponseBodies: {
        [ADDRESS_RATE_RULE_NAME]: { contentType: 'APPLICATION_JSON', content: gatewayErrorBody(GATEWAY_ERRORS.THROTTLED) },
        ...Object.fromEntries(props.edgeRules.map((rule) => [rule.name, { contentType: 'APPLICATION_JSON', content: rule.body }])),
      },
      rules: [
        addressRateLimitRule(props.stageName, props.addressLimit ?? PUBLIC_ADDRESS_LIMITS, visibility),
        ...props.edgeRules.map((rule, index) => edgeRule(rule, FIRST_EDGE_RULE_PRIORITY + index, visibility)),
      ],
    });
    new CfnWebACLAssociation(this, 'StageAssociation', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
