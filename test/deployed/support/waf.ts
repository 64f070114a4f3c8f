import type { GatewayAnswer } from './gateway.js';
import { refTarget, resourcesOfType, type CfnTemplate } from './template.js';

type Statement = Record<string, Record<string, unknown>>;

export interface WafRequest {
  readonly method: string;
  /** The URI path as the client sent it (stage included). */
  readonly uriPath: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The client address (a rate-based rule's IP aggregation key). */
  readonly sourceIp: string;
}

interface Rule {
  name: string;
  priority: number;
  statement: Statement;
  action: Record<string, unknown>;
}

function fieldValue(field: Record<string, unknown>, request: WafRequest): string | undefined {
  if ('Method' in field) return request.method;
  if ('UriPath' in field) return request.uriPath;
  const header = (field.SingleHeader as { Name?: string } | undefined)?.Name;
  if (header) return Object.entries(request.headers).find(([name]) => name.toLowerCase() === header.toLowerCase())?.[1];
  throw new Error(`WAF field ${JSON.stringify(field)} is not emulated`);
}

/** RFC 3986 remove_dot_segments plus collapsed slashes: what WAF's NORMALIZE_PATH does to a path. */
function normalizePath(path: string): string {
  const output: string[] = [];
  const segments = path.replace(/\/{2,}/g, '/').split('/');
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..' && output.length > 1) output.pop();
      if (last) output.push('');
      continue;
    }
    output.push(segment);
  }
  return output.join('/');
}

const TRANSFORMATIONS: Record<string, (value: string) => string> = {
  NONE: (value) => value,
  URL_DECODE: (value) => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  },
  NORMALIZE_PATH: normalizePath,
};

/** The field's value after the statement's text transformations, in their priority order. */
function transformed(statement: Record<string, unknown>, request: WafRequest): string | undefined {
  const value = fieldValue(statement.FieldToMatch as Record<string, unknown>, request);
  if (value === undefined) return undefined;
  const transformations = [...((statement.TextTransformations as { Priority: number; Type: string }[] | undefined) ?? [])].sort((a, b) => a.Priority - b.Priority);
  return transformations.reduce((text, transformation) => {
    const apply = TRANSFORMATIONS[transformation.Type];
    if (!apply) throw new Error(`WAF text transformation ${transformation.Type} is not emulated`);
    return apply(text);
  }, value);
}

/**
 * A rate-based statement's counts: per rule and aggregation key (the client address), the times of
 * the requests its scope-down statement matched over the trailing evaluation window; over the limit,
 * the statement matches.
 */
class RateCounter {
  private readonly seen = new Map<string, number[]>();

  constructor(private readonly now: () => number) {}

  exceeds(key: string, limit: number, windowSeconds: number): boolean {
    const now = this.now();
    const times = (this.seen.get(key) ?? []).filter((time) => time > now - windowSeconds * 1000);
    times.push(now);
    this.seen.set(key, times);
    return times.length > limit;
  }
}

/** A WAF statement's verdict; a field the request lacks never matches (WAF's default for a missing header). */
function matches(statement: Statement, request: WafRequest, rates: RateCounter, ruleName: string): boolean {
  const [[type, body]] = Object.entries(statement) as [[string, Record<string, unknown>]];
  switch (type) {
    case 'AndStatement':
      return (body.Statements as Statement[]).every((inner) => matches(inner, request, rates, ruleName));
    case 'OrStatement':
      return (body.Statements as Statement[]).some((inner) => matches(inner, request, rates, ruleName));
    case 'NotStatement':
      return !matches(body.Statement as Statement, request, rates, ruleName);
    case 'ByteMatchStatement': {
      const value = transformed(body, request);
      if (value === undefined) return false;
      const search = String(body.SearchString);
      switch (body.PositionalConstraint) {
        case 'EXACTLY': return value === search;
        case 'STARTS_WITH': return value.startsWith(search);
        case 'ENDS_WITH': return value.endsWith(search);
        case 'CONTAINS': return value.includes(search);
        default: throw new Error(`WAF positional constraint ${String(body.PositionalConstraint)} is not emulated`);
      }
    }
    case 'RegexMatchStatement': {
      const value = transformed(body, request);
      return value !== undefined && new RegExp(String(body.RegexString)).test(value);
    }
    case 'RateBasedStatement': {
      if (body.AggregateKeyType !== 'IP') throw new Error(`WAF rate aggregation ${String(body.AggregateKeyType)} is not emulated`);
      const scope = body.ScopeDownStatement as Statement | undefined;
      if (scope && !matches(scope, request, rates, ruleName)) return false;
      return rates.exceeds(`${ruleName} ${request.sourceIp}`, Number(body.Limit), Number(body.EvaluationWindowSec ?? 300));
    }
    default:
      throw new Error(`WAF statement ${type} is not emulated`);
  }
}

/**
 * The AWS WAF web ACL associated with the API's stage, evaluated before the gateway as WAF is: rules
 * in priority order, the first Block answers with its custom response (which takes precedence over
 * gateway responses). Rate-based rules count per client address over their window. Statement types
 * and text transformations the tier does not know fail loudly.
 */
export class TemplateWaf {
  private readonly rules: Rule[] = [];
  private readonly bodies: Record<string, { ContentType: string; Content: string }> = {};
  private readonly rates: RateCounter;

  /** `now`: the clock of rate-based rules (tests). */
  constructor(template: CfnTemplate, stageLogicalId: string, now: () => number = Date.now) {
    this.rates = new RateCounter(now);
    const association = resourcesOfType(template, 'AWS::WAFv2::WebACLAssociation')
      .find(([, resource]) => JSON.stringify(resource.Properties?.ResourceArn).includes(`"${stageLogicalId}"`));
    if (!association) return;
    const aclId = refTarget(association[1].Properties?.WebACLArn) as string;
    const acl = template.Resources[aclId]?.Properties ?? {};
    if (!('Allow' in ((acl.DefaultAction as Record<string, unknown> | undefined) ?? {}))) throw new Error('Only a default Allow web ACL is emulated');
    Object.assign(this.bodies, acl.CustomResponseBodies ?? {});
    this.rules = ((acl.Rules as Record<string, unknown>[] | undefined) ?? [])
      .map((rule) => ({ name: String(rule.Name), priority: Number(rule.Priority), statement: rule.Statement as Statement, action: rule.Action as Record<string, unknown> }))
      .sort((a, b) => a.priority - b.priority);
  }

  /** The custom response of the first blocking rule that matches, or undefined to let the request through. */
  evaluate(request: WafRequest): GatewayAnswer | undefined {
    for (const rule of this.rules) {
      if (!matches(rule.statement, request, this.rates, rule.name)) continue;
      if ('Allow' in rule.action) return undefined;
      if ('Count' in rule.action) continue;
      const response = (rule.action.Block as { CustomResponse?: { ResponseCode: number; CustomResponseBodyKey?: string; ResponseHeaders?: { Name: string; Value: string }[] } } | undefined)?.CustomResponse;
      if (!response) return { status: 403, headers: { 'Content-Type': 'text/html' }, body: Buffer.from('<html><body>Forbidden</body></html>') };
      const body = response.CustomResponseBodyKey ? this.bodies[response.CustomResponseBodyKey] : undefined;
      const contentTypes: Record<string, string> = { APPLICATION_JSON: 'application/json', TEXT_PLAIN: 'text/plain', TEXT_HTML: 'text/html' };
      const headers: Record<string, string> = { ...(body ? { 'Content-Type': contentTypes[body.ContentType] ?? 'text/plain' } : {}) };
      // A Block's custom response headers are sent as named (WAF prefixes `x-amzn-waf-` only to headers it inserts into requests).
      for (const header of response.ResponseHeaders ?? []) headers[header.Name] = header.Value;
      return { status: response.ResponseCode, headers, body: Buffer.from(body?.Content ?? '') };
    }
    return undefined;
  }
}
