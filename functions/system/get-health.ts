import { config } from '../../shared/config.js';
import { getItem } from '../../shared/db/conditional.js';
import { HEALTH_PROBE_KEY } from '../../shared/db/table-design.js';
import { implement } from '../../shared/http/operation.js';
import { systemRoutes } from '../../shared/http/routes/system.js';
import { logger } from '../../shared/logger.js';

const DB_CHECK_TIMEOUT_MS = 1_000;

/** One eventually consistent GetItem of an absent key: the cheapest read that proves the table answers. */
async function databaseAnswers(): Promise<boolean> {
  try {
    await getItem(HEALTH_PROBE_KEY, { abortSignal: AbortSignal.timeout(DB_CHECK_TIMEOUT_MS) });
    return true;
  } catch (error) {
    logger.warn('Health check: DynamoDB did not answer', { error: error as Error });
    return false;
  }
}

export const getHealth = implement(systemRoutes.health, async () => {
  const connected = await databaseAnswers();
  return {
    status: connected ? 'ok' : 'degraded',
    version: config().apiVersion,
    timestamp: new Date().toISOString(),
    db: connected ? 'connected' : 'disconnected',
  };
});
