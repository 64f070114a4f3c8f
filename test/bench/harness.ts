import { startDynamoDbLocal, type RunningDynamoDb } from '../../bin/local/dynamodb-local.js';
import { ensureTables } from '../../bin/local/bootstrap.js';
import type { LocalServer } from '../../bin/local/server.js';
import { freePort } from '../../bin/local/ports.js';

export interface BenchEnvironment {
  server: LocalServer;
  dynamo: RunningDynamoDb;
  workspace: { workspaceId: string; apiKey: string };
  stop(): Promise<void>;
}


const TABLE = 'boxoffice-bench';
const IDEMPOTENCY_TABLE = 'boxoffice-bench-idempotency';

/**
 * Picks DynamoDB Local's port and sets the environment the runtime modules read when they are imported
 * (the DynamoDB client takes its endpoint at module scope): call it before importing any suite.
 */
export async function prepareBenchEnvironment(): Promise<number> {
  const port = await freePort();
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${port}`, TABLE_NAME: TABLE, IDEMPOTENCY_TABLE_NAME: IDEMPOTENCY_TABLE,
    EXPOSE_DB_STATS: 'true', POWERTOOLS_LOG_LEVEL: 'SILENT', AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local',
  });
  return port;
}

/** DynamoDB Local on the prepared port, tables, the local server and a fresh workspace. */
export async function startBenchEnvironment(port: number): Promise<BenchEnvironment> {
  const dynamo = await startDynamoDbLocal({ port });
  await ensureTables(dynamo.endpoint, TABLE, IDEMPOTENCY_TABLE);
  const { startLocalServer } = await import('../../bin/local/server.js');
  const { createApiKey, createWorkspace, setWorkspaceLimits } = await import('../../shared/workspaces/workspaces-repository.js');
  const { WORKSPACE_LIMIT_BOUNDS } = await import('../../shared/workspaces/workspace-model.js');
  const server = await startLocalServer({ port: 0 });
  const created = await createWorkspace('Bench');
  // The throughput suite measures the server, rate limiter included, not the local default limits
  // (1,000 requests/s): the bench workspace gets the highest limits a usage plan can hold.
  await setWorkspaceLimits(created.id, { rate: WORKSPACE_LIMIT_BOUNDS.rate.max, burst: WORKSPACE_LIMIT_BOUNDS.burst.max });
  const { apiKey } = await createApiKey(created.id, 'read_write');
  return {
    server, dynamo, workspace: { workspaceId: created.id, apiKey },
    stop: async () => { await server.close(); dynamo.stop(); },
  };
}

export function parseDbStats(header: string | null): Record<string, number> {
  const stats: Record<string, number> = {};
  for (const part of (header ?? '').split(';')) {
    const [name, value] = part.split('=');
    if (name && value !== undefined) stats[name] = Number(value);
  }
  return stats;
}
