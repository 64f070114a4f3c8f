import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { parseBearer } from '../../shared/auth/api-keys.js';
import { FUNCTION_TIMEOUT_MS, withTimeBudget } from '../../shared/db/time-budget.js';
import { logger } from '../../shared/logger.js';
import { findApiKey } from '../../shared/workspaces/workspaces-repository.js';
import { policyFor } from './policy.js';
import { traced } from '../../shared/observability/tracing.js';

/** API Gateway answers this exact message with the UNAUTHORIZED (401) gateway response. */
const UNAUTHORIZED = 'Unauthorized';

function authorizationHeader(event: APIGatewayRequestAuthorizerEvent): string | undefined {
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (name.toLowerCase() === 'authorization') return value ?? undefined;
  }
  return undefined;
}

/**
 * REQUEST authorizer: hashes the Bearer key, resolves it with one GetItem and allows the request with
 * the workspace in the context. The key itself is never logged. The lookup fits in the function's
 * remaining time: when DynamoDB cannot answer in time the authorizer fails (API Gateway's
 * AUTHORIZER_FAILURE, a 503 with Retry-After) instead of timing out.
 */
async function authorize(event: APIGatewayRequestAuthorizerEvent, context?: Context): Promise<APIGatewayAuthorizerResult> {
  const apiKey = parseBearer(authorizationHeader(event));
  if (!apiKey) throw new Error(UNAUTHORIZED);
  const remaining = context?.getRemainingTimeInMillis() ?? FUNCTION_TIMEOUT_MS.authorizer;
  const record = await withTimeBudget(remaining, () => findApiKey(apiKey));
  if (!record || record.revokedAt) {
    logger.info('Rejected API key', { keyId: record?.keyId, revoked: Boolean(record?.revokedAt) });
    throw new Error(UNAUTHORIZED);
  }
  return policyFor(event.methodArn, record);
}

export const handler = traced(authorize);
