import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { formatSpread, round, spreadOf } from '../stats.js';
import type { BenchSuite } from '../suite.js';

const RPS_GOAL = 3_000;
/** Seconds per measurement; `--p5-seconds` overrides. */
const DEFAULT_SECONDS = 5;
const CONNECTIONS = 10;

/** The local server in a child process (`support/serve.ts`), so the load generator has its own core. */
async function startServerProcess(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('../support/serve.ts', import.meta.url).pathname], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`P5: the server exited with ${code}`)));
    child.stdout?.once('data', (line: Buffer) => resolve((JSON.parse(String(line)) as { url: string }).url));
  });
  return { url, child };
}

async function requestsPerSecond(url: string, headers: Record<string, string>, seconds: number): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`P5: ${url} answered ${result.non2xx} non-2xx and ${result.errors} errors`);
  return result.requests.total / seconds;
}

/**
 * P5: requests per second of the local server on 127.0.0.1 for a fixed duration, with autocannon
 * (keep-alive connections, ${CONNECTIONS} at a time) in this process and the server in a child process:
 * on a 2-core machine each gets a core, and neither measures the other's event loop. `GET /v1/` runs
 * with one key, so after the first request the authorizer answers from its cache, as API Gateway's
 * would; `GET /health/` makes one DynamoDB Local read per request.
 */
export const throughputSuite: BenchSuite = {
  id: 'p5',
  title: 'P5 local server throughput (req/s, keep-alive, 127.0.0.1)',
  async run(context) {
    const env = await context.environment();
    const seconds = Number(process.env.BENCH_P5_SECONDS || DEFAULT_SECONDS);
    const { url, child } = await startServerProcess();
    try {
      const targets: { route: string; url: string; headers: Record<string, string> }[] = [
        { route: 'GET /v1/', url: `${url}/v1/`, headers: { authorization: `Bearer ${env.workspace.apiKey}` } },
        { route: 'GET /health/', url: `${url}/health/`, headers: {} },
      ];
      const samples = new Map<string, number[]>(targets.map((target) => [target.route, []]));
      for (const target of targets) await requestsPerSecond(target.url, target.headers, 1); // warm-up: modules, cache
      for (let rep = 0; rep < context.reps; rep += 1) {
        for (const target of targets) samples.get(target.route)?.push(await requestsPerSecond(target.url, target.headers, seconds));
      }
      const rows = targets.map((target) => ({ route: target.route, spread: spreadOf(samples.get(target.route) ?? []) }));
      const v1 = rows[0]?.spread.median ?? 0;
      return {
        table: rows.map((row) => ({ route: row.route, 'req/s median (min-max)': formatSpread(row.spread, 0), seconds, connections: CONNECTIONS })),
        json: rows.map((row) => ({ route: row.route, rps: round(row.spread.median, 0) })),
        verdicts: [`P5 goal (>= ${RPS_GOAL} req/s on GET /v1/ with a cached key, median): ${v1 >= RPS_GOAL ? 'met' : 'NOT met'} (${round(v1, 0)} req/s)`],
      };
    } finally {
      child.kill('SIGTERM');
    }
  },
};
