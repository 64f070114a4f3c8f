import type { BenchEnvironment } from './harness.js';

/** What every suite gets: the repetition count and the shared, lazily started environment. */
export interface BenchContext {
  /** Repetitions per measurement (>= 5): each figure is a median with its spread. */
  readonly reps: number;
  /** DynamoDB Local, the tables, the in-process local server and a fresh workspace; started on first use. */
  environment(): Promise<BenchEnvironment>;
  /** Results of the suites that already ran, by id (P6 prices what P3 measured). */
  readonly results: Map<string, SuiteResult>;
}

export interface SuiteResult {
  /** Rows printed as a table. */
  readonly table: Record<string, string | number | boolean>[];
  /** The suite's entry in the `--json` object (`{"p1": [...]}`). */
  readonly json: unknown[];
  /** Anything the suite wants later suites to read. */
  readonly data?: unknown;
  /** Goal lines printed under the table (`P1 ... met`). */
  readonly verdicts?: string[];
}

/**
 * One benchmark suite, in its own file under `suites/`; `suites.ts` lists them in run order. A new
 * suite is one more file and one more line there.
 */
export interface BenchSuite {
  /** Key in the JSON object: `p1`, `p2`, ... */
  readonly id: string;
  readonly title: string;
  run(context: BenchContext): Promise<SuiteResult>;
}
