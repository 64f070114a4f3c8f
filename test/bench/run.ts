/**
 * `npm run bench`: latency and DynamoDB cost per request of the main paths, on DynamoDB Local.
 * Latencies here measure this machine (2 shared cores, DynamoDB Local in Java), not AWS; the DynamoDB
 * cost columns (calls, items read, capacity) are what carries over. Performance goals are checked as
 * ratios of those costs, never as timed assertions in tests.
 */
import { measure, startBenchEnvironment, timedRequest } from './harness.js';
import { benchmarks } from './suites.js';

const env = await startBenchEnvironment();
try {
  const base = env.server.url;
  const auth = { headers: { Authorization: `Bearer ${env.workspace.apiKey}` } };
  const rows: Record<string, string | number>[] = [];
  rows.push(await measure('GET /health/', 200, () => timedRequest(`${base}/health/`)));
  rows.push(await measure('GET /v1/ (authorizer + handler)', 200, () => timedRequest(`${base}/v1/`, auth)));
  for (const suite of benchmarks) rows.push(...(await suite(env)));
  console.table(rows);
} finally {
  await env.stop();
}
