import { APIGatewayClient, FlushStageAuthorizersCacheCommand } from '@aws-sdk/client-api-gateway';
import { LOCAL_AUTHORIZER_CACHE_PATH } from '../local/authorizer-cache.js';
import type { ApiStageTarget } from './usage-plans.js';

/** What became of the API's authorizer cache after a key was revoked. */
export type CacheFlush = 'flushed' | 'no-local-server' | 'no-stage';

/**
 * Empties the API's authorizer result cache, so that a revoked key is refused at once instead of
 * working for up to the cache's 300 s: API Gateway's FlushStageAuthorizersCache on the deployed stage,
 * or the running `npm start` server's stand-in (`DELETE /_local/authorizer-cache` on 127.0.0.1:$PORT).
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

/** The local API the admin CLI flushes: the one `npm start` serves on $PORT (3000). */
export const localApiUrl = (env: NodeJS.ProcessEnv = process.env): string => `http://127.0.0.1:${Number(env.PORT || 3000)}`;
