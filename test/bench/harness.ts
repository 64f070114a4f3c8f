import { createServer } from 'node:net';
import { startDynamoDbLocal, type RunningDynamoDb } from '../../bin/local/dynamodb-local.js';
import { ensureTables } from '../../bin/local/bootstrap.js';
import type { LocalServer } from '../../bin/local/server.js';

export interface BenchEnvironment {
  server: LocalServer;
  dynamo: RunningDynamoDb;
  workspace: { workspaceId: string; apiKey: string };
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** DynamoDB Local on a free port, tables, the local server and a fresh workspace. */
export async function startBenchEnvironment(): Promise<BenchEnvironment> {
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint, TABLE_NAME: 'boxoffice-bench', IDEMPOTENCY_TABLE_NAME: 'boxoffice-bench-idempotency',
    EXPOSE_DB_STATS: 'true', POWERTOOLS_LOG_LEVEL: 'SILENT', AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local',
  });
  await ensureTables(dynamo.endpoint, 'boxoffice-bench', 'boxoffice-bench-idempotency');
  const { startLocalServer } = await import('../../bin/local/server.js');
  const { createApiKey, createWorkspace } = await import('../../shared/workspaces/workspaces-repository.js');
  const server = await startLocalServer({ port: 0 });
  const created = await createWorkspace('Bench');
  const { apiKey } = await createApiKey(created.id, 'read_write');
  return {
    server, dynamo, workspace: { workspaceId: created.id, apiKey },
    stop: async () => { await server.close(); dynamo.stop(); },
  };
}

export interface Sample {
  status: number;
  ms: number;
  dbStats: Record<string, number>;
}

export function parseDbStats(header: string | null): Record<string, number> {
  const stats: Record<string, number> = {};
  for (const part of (header ?? '').split(';')) {
    const [name, value] = part.split('=');
    if (name && value !== undefined) stats[name] = Number(value);
  }
  return stats;
}

export async function timedRequest(url: string, init: RequestInit = {}): Promise<Sample> {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started, dbStats: parseDbStats(response.headers.get('x-db-stats')) };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Sequential requests (the machine has 2 cores; concurrency would measure the scheduler). */
export async function measure(name: string, count: number, request: () => Promise<Sample>): Promise<Record<string, string | number>> {
  for (let i = 0; i < 5; i += 1) await request(); // warm-up: module load, connections
  const samples: Sample[] = [];
  for (let i = 0; i < count; i += 1) samples.push(await request());
  const ms = samples.map((sample) => sample.ms);
  const bad = samples.filter((sample) => sample.status >= 400).length;
  return {
    benchmark: name,
    requests: count,
    errors: bad,
    p50_ms: Number(percentile(ms, 50).toFixed(1)),
    p99_ms: Number(percentile(ms, 99).toFixed(1)),
    db_calls: samples[0]?.dbStats.calls ?? 0,
    items_read: samples[0]?.dbStats.items ?? 0,
    rcu: samples[0]?.dbStats.rcu ?? 0,
  };
}
