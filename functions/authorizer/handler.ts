import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { parseBearer } from '../../shared/auth/api-keys.js';
import { logger } from '../../shared/logger.js';
import { findApiKey } from '../../shared/workspaces/workspaces-repository.js';
import { policyFor } from './policy.js';

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
 * the workspace in the context. The key itself is never logged.
 */
export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const apiKey = parseBearer(authorizationHeader(event));
  if (!apiKey) throw new Error(UNAUTHORIZED);
  const record = await findApiKey(apiKey);
  if (!record || record.revokedAt) {
    logger.info('Rejected API key', { keyId: record?.keyId, revoked: Boolean(record?.revokedAt) });
    throw new Error(UNAUTHORIZED);
  }
  return policyFor(event.methodArn, record);
}
