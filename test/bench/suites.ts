import type { BenchEnvironment } from './harness.js';
import { balanceBench } from './balance.js';
import { partnerListingBench } from './partner-listing.js';

/** Feature benchmarks; each returns rows for the result table. */
export type BenchSuite = (env: BenchEnvironment) => Promise<Record<string, string | number>[]>;

export const benchmarks: BenchSuite[] = [partnerListingBench, balanceBench];
