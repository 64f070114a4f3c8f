import type { APIGatewayAuthorizerResult } from 'aws-lambda';

/** Compiled resource patterns: a cached policy is evaluated on every request, its patterns compiled once. */
const compiled = new Map<string, RegExp>();

function matches(pattern: string, value: string): boolean {
  let regex = compiled.get(pattern);
  if (!regex) {
    regex = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    if (compiled.size < 1_000) compiled.set(pattern, regex);
  }
  return regex.test(value);
}

/** IAM evaluation as API Gateway applies an authorizer policy: an explicit Deny wins, else an Allow is needed. */
export function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  let allowed = false;
  for (const statement of result.policyDocument.Statement) {
    const s = statement as { Effect: string; Resource?: string | string[] };
    const resources = s.Resource === undefined ? [] : Array.isArray(s.Resource) ? s.Resource : [s.Resource];
    if (!resources.some((resource) => matches(resource, methodArn))) continue;
    if (s.Effect === 'Deny') return false;
    if (s.Effect === 'Allow') allowed = true;
  }
  return allowed;
}
