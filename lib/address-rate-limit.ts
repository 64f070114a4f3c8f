import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { GATEWAY_ERRORS, corsHeaders, gatewayErrorBody } from '../shared/http/gateway-responses.js';
import {
  PUBLIC_ADDRESS_LIMITS, WAF_EVALUATION_WINDOW_SECONDS, WAF_RETRY_AFTER_SECONDS, addressLimitedPathRegex, wafWindowLimit, type RateLimit,
} from '../shared/http/rate-limits.js';

/** Name of the rule and of its response body in the web ACL. */
export const ADDRESS_RATE_RULE_NAME = 'public-routes-per-address';

/**
 * The rate-based rule limiting each client address on the public routes (`/partner/events`,
 * `/forms/...`), and the 429 it answers. A WAF custom response replaces the gateway's whole answer,
 * so it carries the same body as API Gateway's THROTTLED response, `Retry-After`, and the CORS
 * headers a browser on a partner's site needs to read it.
 */
export function addressRateLimitRule(props: { stage: string; priority: number; metricPrefix: string; limit?: RateLimit }): {
  rule: CfnWebACL.RuleProperty;
  responseBodies: Record<string, CfnWebACL.CustomResponseBodyProperty>;
} {
  const headers = { ...corsHeaders(), 'Retry-After': String(WAF_RETRY_AFTER_SECONDS) };
  return {
    rule: {
      name: ADDRESS_RATE_RULE_NAME,
      priority: props.priority,
      action: {
        block: {
          customResponse: {
            responseCode: GATEWAY_ERRORS.THROTTLED.statusCode,
            customResponseBodyKey: ADDRESS_RATE_RULE_NAME,
            responseHeaders: Object.entries(headers).map(([name, value]) => ({ name, value })),
          },
        },
      },
      statement: {
        rateBasedStatement: {
          aggregateKeyType: 'IP',
          evaluationWindowSec: WAF_EVALUATION_WINDOW_SECONDS,
          limit: wafWindowLimit(props.limit ?? PUBLIC_ADDRESS_LIMITS),
          scopeDownStatement: {
            regexMatchStatement: {
              fieldToMatch: { uriPath: {} },
              regexString: addressLimitedPathRegex(props.stage),
              // Matched on the path as API Gateway routes it: `%66orms` or `//forms` must not slip past.
              textTransformations: [{ priority: 0, type: 'URL_DECODE' }, { priority: 1, type: 'NORMALIZE_PATH' }],
            },
          },
        },
      },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: `${props.metricPrefix}-${ADDRESS_RATE_RULE_NAME}`, sampledRequestsEnabled: true },
    },
    responseBodies: { [ADDRESS_RATE_RULE_NAME]: { contentType: 'APPLICATION_JSON', content: gatewayErrorBody(GATEWAY_ERRORS.THROTTLED) } },
  };
}

export interface ApiFirewallProps {
  readonly stage: Stage;
  /** The stage's name as a literal (the Stage construct's is a token): the path pattern names it. */
  readonly stageName: string;
  /** Prefix of the CloudWatch metric names. */
  readonly metricPrefix: string;
  /** Per-address limit on the public routes. @default PUBLIC_ADDRESS_LIMITS (20 requests/s) */
  readonly addressLimit?: RateLimit;
}

/**
 * The regional AWS WAF web ACL of the API stage (a stage takes one web ACL): requests pass unless a
 * rule blocks them; today its one rule is the per-address limit of the public routes.
 */
export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    const { rule, responseBodies } = addressRateLimitRule({
      stage: props.stageName, priority: 0, metricPrefix: props.metricPrefix, ...(props.addressLimit ? { limit: props.addressLimit } : {}),
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: `${props.metricPrefix}-web-acl`, sampledRequestsEnabled: true },
      customResponseBodies: responseBodies,
      rules: [rule],
    });
    new CfnWebACLAssociation(this, 'StageAssociation', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
