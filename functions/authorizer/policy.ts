import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import type { ApiKeyRecord } from '../../shared/workspaces/workspace-model.js';
import { usagePlanKeyOf } from '../../shared/auth/usage-plan-keys.js';

/**
 * API Gateway caches the authorizer's policy per identity source (the `Authorization` header value) for
 * this long. The CDK stack configures it and the local server emulates the same cache.
 */
export const AUTHORIZER_CACHE_TTL_SECONDS = 300;

/** The authorizer's identity source: a request without this header is a 401 without calling it. */
export const AUTHORIZER_IDENTITY_HEADER = 'Authorization';

/**
 * The IAM policy for a key. It must be valid for every method and path, because API Gateway caches it
 * per Authorization header for 300 s: read-write keys get the whole stage, read-only keys only the
 * safe methods, so a cached read-only policy still denies writes (403 ACCESS_DENIED).
 *
 * `usageIdentifierKey` names the workspace's API Gateway API key (the API's key source is AUTHORIZER):
 * API Gateway throttles the request by that key's usage plan, so every key of a workspace shares the
 * workspace's limits. It depends only on the stage and the workspace, so caching it is safe too.
 */
export function policyFor(methodArn: string, record: ApiKeyRecord): APIGatewayAuthorizerResult {
  // methodArn: arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/{method}/{path...}
  const [apiArn, stage] = methodArn.split('/');
  const stageArn = `${apiArn}/${stage}`;
  const resources = record.scope === 'read_only'
    ? [`${stageArn}/GET/*`, `${stageArn}/HEAD/*`, `${stageArn}/OPTIONS/*`]
    : [`${stageArn}/*`];
  return {
    principalId: record.keyId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: resources }],
    },
    context: { workspaceId: record.workspaceId, keyId: record.keyId, scope: record.scope },
    usageIdentifierKey: usagePlanKeyOf(stage ?? '', record.workspaceId).value,
  };
}
