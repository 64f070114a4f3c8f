/**
 * `npm run bench [-- --json] [--only p1,p3] [--reps 7]`: the performance and cost goals, measured in one
 * run as ratios against baselines taken in the same run (a median and its spread over the repetitions),
 * never as absolute timings that depend on this machine's load. Prints one table per suite; with
 * `--json`, the last line is one JSON object `{"p1": [...], "p2": [...], ...}`. Method: README "Benchmarks".
 */
import { parseArgs } from 'node:util';
import { prepareBenchEnvironment, startBenchEnvironment, type BenchEnvironment } from './harness.js';
import type { BenchContext, SuiteResult } from './suite.js';

// The environment first: runtime modules read it when the suites import them.
const dynamoPort = await prepareBenchEnvironment();
const { suites } = await import('./suites.js');

const MIN_REPS = 5;

const { values } = parseArgs({
  options: { json: { type: 'boolean', default: false }, only: { type: 'string' }, reps: { type: 'string', default: String(MIN_REPS) } },
});
const reps = Math.max(MIN_REPS, Number(values.reps));
const only = values.only ? new Set(values.only.split(',')) : undefined;
const selected = suites.filter((suite) => !only || only.has(suite.id));
if (only?.has('p6') && !only.has('p3')) selected.unshift(...suites.filter((suite) => suite.id === 'p3'));

let environment: Promise<BenchEnvironment> | undefined;
const context: BenchContext = {
  reps,
  environment: () => (environment ??= startBenchEnvironment(dynamoPort)),
  results: new Map<string, SuiteResult>(),
};

const output: Record<string, unknown[]> = {};
const startedAt = new Date();
try {
  for (const suite of selected) {
    const started = performance.now();
    console.log(`\n${suite.title}  [${reps} repetitions]`);
    const result = await suite.run(context);
    context.results.set(suite.id, result);
    output[suite.id] = result.json;
    console.table(result.table);
    for (const verdict of result.verdicts ?? []) console.log(verdict);
    console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
} finally {
  if (environment) await (await environment).stop();
}
console.log(`\nbench: ${startedAt.toISOString()}, Node ${process.version}, load average ${(await import('node:os')).loadavg().map((load) => load.toFixed(1)).join(' ')}`);
if (values.json) console.log(JSON.stringify(output));
