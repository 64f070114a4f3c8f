import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { decimalAtMost, type EdgeRule } from '../shared/http/edge-rules.js';

export interface EdgeFirewallProps {
  readonly stage: Stage;
  readonly rules: readonly EdgeRule[];
  /** Prefix of the CloudWatch metric names. */
  readonly metricPrefix: string;
}

const NO_TRANSFORMATION = [{ priority: 0, type: 'NONE' }];

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A regional AWS WAF web ACL on the API stage, made of the shared edge rules: each blocks requests
 * that would reach Lambda too large to invoke, answering the rule's status and body (a WAF custom
 * response takes precedence over API Gateway's gateway responses). The local server applies the
 * same rules before routing.
 */
export class EdgeFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeFirewallProps) {
    super(scope, id);
    const visibility = (name: string) => ({ cloudWatchMetricsEnabled: true, metricName: `${props.metricPrefix}-${name}`, sampledRequestsEnabled: true });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('edge'),
      customResponseBodies: Object.fromEntries(props.rules.map((rule) => [rule.name, { contentType: 'APPLICATION_JSON', content: rule.body }])),
      rules: props.rules.map((rule, priority) => ({
        name: rule.name,
        priority,
        action: {
          block: {
            customResponse: {
              responseCode: rule.status,
              customResponseBodyKey: rule.name,
              // Sent as named (WAF prefixes only headers it inserts into requests); content-type comes from the body.
              responseHeaders: Object.entries(rule.headers).map(([name, value]) => ({ name, value })),
            },
          },
        },
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
      })),
    });
    new CfnWebACLAssociation(this, 'StageAssociation', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
