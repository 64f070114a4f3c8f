import type { BenchSuite } from './suite.js';
import { coldStartSuite } from './suites/p1-cold-start.js';
import { handlerOverheadSuite } from './suites/p2-handler-overhead.js';
import { dbCostSuite } from './suites/p3-db-cost.js';
import { scalingSuite } from './suites/p4-scaling.js';
import { throughputSuite } from './suites/p5-throughput.js';
import { costSuite } from './suites/p6-cost.js';

/**
 * Every suite of `npm run bench`, in run order (P6 prices what P3 measured). A suite is one file under
 * `suites/` exporting a `BenchSuite`; adding one is one more line here.
 */
export const suites: readonly BenchSuite[] = [coldStartSuite, handlerOverheadSuite, dbCostSuite, scalingSuite, throughputSuite, costSuite];
