import { APIGatewayClient, FlushStageAuthorizersCacheCommand } from '@aws-sdk/client-api-gateway';
import { LOCAL_AUTHORIZER_CACHE_PATH } from '../local/authorizer-cache.js';
import { runningApiUrl } from '../local/running-apis.js';
import type { ApiStageTarget } from './usage-plans.js';

/** What became of the API's authorizer cache after a key was revoked. */
export type CacheFlush = 'flushed' | 'no-local-server' | 'no-stage';

/**
 * Empties the API's authorizer result cache, so that a revoked key is refused at once instead of
 * working for up to the cache's 300 s: API Gateway's FlushStageAuthorizersCache on the deployed stage,
 * or the running `npm start` server's stand-in (`DELETE /_local/authorizer-cache`; see `localApiUrl`).
 * A local server that is not running has nothing cached; a deployed stage that is not named cannot be flushed.
 */
export async function flushAuthorizerCache(target: { aws: true; stage: ApiStageTarget | undefined } | { aws: false; localUrl: string }): Promise<CacheFlush> {
  if (target.aws) {
    if (!target.stage) return 'no-stage';
    await new APIGatewayClient({}).send(new FlushStageAuthorizersCacheCommand({ restApiId: target.stage.restApiId, stageName: target.stage.stage }));
    return 'flushed';
  }
  try {
    const response = await fetch(`${target.localUrl}${LOCAL_AUTHORIZER_CACHE_PATH}`, { method: 'DELETE', signal: AbortSignal.timeout(2_000) });
    return response.status === 204 ? 'flushed' : 'no-local-server';
  } catch {
    return 'no-local-server';
  }
}

/**
 * The local API the admin CLI flushes: the one on $PORT when it is set, else the `npm start` recorded
 * for the CLI's DynamoDB (`.local/running-apis.json`), else the default port 3000.
 */
export function localApiUrl(env: NodeJS.ProcessEnv = process.env, recorded = env.DYNAMODB_ENDPOINT ? runningApiUrl(env.DYNAMODB_ENDPOINT) : undefined): string {
  if (env.PORT) return `http://127.0.0.1:${Number(env.PORT)}`;
  return recorded ?? 'http://127.0.0.1:3000';
}
