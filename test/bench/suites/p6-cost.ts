import { AUTHORIZER_MEMORY_MB } from '../../../lib/api-stack.js';
import { memorySizeOf } from '../../../lib/group-functions.js';
import type { RouteGroup } from '../../../shared/http/route.js';
import { createApiKey } from '../../../shared/workspaces/workspaces-repository.js';
import { round, spreadOf } from '../stats.js';
import type { BenchSuite } from '../suite.js';
import type { RouteCost } from './p3-db-cost.js';

/**
 * Public list prices, us-east-1, as published on the AWS pricing pages (checked 2025-01): Lambda on
 * Arm, API Gateway REST (first 333 M requests a month), DynamoDB on-demand (after the November 2024
 * price cut). Change them here; the README table is this suite's output.
 */
export const PRICES = {
  checked: '2025-01, us-east-1',
  lambdaRequest: 0.20 / 1e6,
  lambdaArmGbSecond: 0.0000133334,
  apiGatewayRestRequest: 3.50 / 1e6,
  dynamoReadRequestUnit: 0.125 / 1e6,
  dynamoWriteRequestUnit: 0.625 / 1e6,
} as const;

/** An eventually consistent GetItem of a key item (< 4 KB). */
const AUTHORIZER_RCU = 0.5;

export interface TrafficMix {
  readonly name: string;
  /** Share of requests per route (`GET /partner/events`); normalised over the measured routes. */
  readonly shares: Record<string, number>;
  /** Share of key-route requests that API Gateway answers from the authorizer cache. */
  readonly authorizerHitRate: number;
}

/**
 * The documented traffic mixes. A public day: partner widgets and embedded forms on busy sites, mostly
 * listings (browsers cache a listing 30 s, which API Gateway still counts). A host back-office day: a
 * team working through events, forms, invoices and checkouts with a handful of keys, each reused well
 * within the authorizer cache's 300 s (95 % hits).
 */
export const MIXES: readonly TrafficMix[] = [
  {
    name: 'public day (partner-listing heavy)',
    shares: {
      'GET /partner/events': 0.80, 'GET /forms/{formId}': 0.08, 'POST /forms/{formId}/responses': 0.04,
      'GET /health': 0.04, 'GET /openapi.json': 0.02, 'GET /docs': 0.02,
    },
    authorizerHitRate: 0.95,
  },
  {
    name: 'host back-office day',
    shares: {
      'GET /v1/events': 0.20, 'GET /v1/events/{id}': 0.10, 'GET /v1/forms': 0.10, 'GET /v1/forms/{formId}': 0.10,
      'GET /v1/invoices': 0.10, 'GET /v1/invoices/{invoiceId}': 0.05, 'GET /v1/contacts': 0.05, 'GET /v1/checkouts': 0.05,
      'GET /v1/events/balance': 0.05, 'POST /v1/invoices': 0.05, 'PATCH /v1/events/{id}': 0.05, 'POST /v1/contacts': 0.05,
      'GET /v1': 0.05,
    },
    authorizerHitRate: 0.95,
  },
];

/**
 * Reads that grow with the data rather than with the page. None left: the checkouts list, the last one,
 * reads its page from list projections (README "Access patterns: checkouts list"; the same items and RCU
 * at 10x, test/integration/checkouts-list-cost.test.ts); every route of the mixes reads a bounded page or item.
 */
const GROWS_WITH_DATA = new Set<string>();

function lambdaUsd(ms: number, memoryMb: number): number {
  return PRICES.lambdaRequest + (Math.ceil(ms) / 1000) * (memoryMb / 1024) * PRICES.lambdaArmGbSecond;
}

/** Dollars for one request of the route; `dataFactor` scales reads that grow with the data. */
function usdPerRequest(cost: RouteCost, authorizerMs: number, hitRate: number, dataFactor: number): number {
  const readFactor = GROWS_WITH_DATA.has(cost.route) ? dataFactor : 1;
  const dynamo = cost.rcu * readFactor * PRICES.dynamoReadRequestUnit + cost.wcu * PRICES.dynamoWriteRequestUnit;
  const handler = lambdaUsd(cost.ms * (GROWS_WITH_DATA.has(cost.route) ? dataFactor : 1), memorySizeOf(cost.group as RouteGroup));
  const authorizer = cost.auth === 'key'
    ? (1 - hitRate) * (lambdaUsd(authorizerMs, AUTHORIZER_MEMORY_MB) + AUTHORIZER_RCU * PRICES.dynamoReadRequestUnit)
    : 0;
  return PRICES.apiGatewayRestRequest + handler + dynamo + authorizer;
}

/** Median milliseconds of the real authorizer resolving a key (one GetItem on DynamoDB Local). */
async function authorizerMs(workspaceId: string, reps: number): Promise<number> {
  const { handler } = await import('../../../functions/authorizer/handler.js');
  const { apiKey } = await createApiKey(workspaceId, 'read_write');
  const event = { type: 'REQUEST', methodArn: 'arn:aws:execute-api:us-east-1:000000000000:api/prod/GET/v1', headers: { Authorization: `Bearer ${apiKey}` } };
  const times: number[] = [];
  for (let i = 0; i < reps * 4; i += 1) {
    const started = performance.now();
    await handler(event as never);
    times.push(performance.now() - started);
  }
  return spreadOf(times.slice(reps)).median;
}

/**
 * P6: what a million requests cost deployed, per endpoint and for the two mixes, from P3's measured
 * capacity and handler time, each group's configured memory (`lib/`) and the prices above. Handler time
 * is the local server's wall time (DynamoDB Local answers in about the same 1-5 ms as DynamoDB in the
 * region); Lambda bills it rounded up to the millisecond. The `10x data` rows scale the reads that grow
 * with the data.
 */
export const costSuite: BenchSuite = {
  id: 'p6',
  title: `P6 cost per million requests, deployed (prices ${PRICES.checked})`,
  async run(context) {
    const p3 = context.results.get('p3')?.data as RouteCost[] | undefined;
    if (!p3) throw new Error('P6 prices what P3 measured: run p3 first');
    const env = await context.environment();
    const authMs = await authorizerMs(env.workspace.workspaceId, context.reps);
    const byRoute = new Map(p3.map((cost) => [cost.route, cost]));
    const perEndpoint = p3.map((cost) => ({
      route: cost.route,
      'RCU': cost.rcu,
      'WCU': cost.wcu,
      'ms': cost.ms,
      'MB': memorySizeOf(cost.group as RouteGroup),
      'USD / 1M (95% authorizer hits)': round(usdPerRequest(cost, authMs, 0.95, 1) * 1e6, 2),
    }));
    const mixRows: { mix: string; usdPerMillion: number; missing: string[] }[] = [];
    for (const dataFactor of [1, 10]) {
      for (const mix of MIXES) {
        const present = Object.entries(mix.shares).filter(([route]) => byRoute.has(route));
        const total = present.reduce((sum, [, share]) => sum + share, 0);
        const usd = present.reduce((sum, [route, share]) => sum + (share / total) * usdPerRequest(byRoute.get(route) as RouteCost, authMs, mix.authorizerHitRate, dataFactor), 0);
        mixRows.push({
          mix: dataFactor === 1 ? mix.name : `${mix.name}, 10x data`,
          usdPerMillion: round(usd * 1e6, 2),
          missing: Object.keys(mix.shares).filter((route) => !byRoute.has(route)),
        });
      }
    }
    return {
      table: [
        ...perEndpoint,
        ...mixRows.map((row) => ({ route: `MIX ${row.mix}`, 'USD / 1M (95% authorizer hits)': row.usdPerMillion, ...(row.missing.length > 0 ? { note: `unmeasured: ${row.missing.join(', ')}` } : {}) })),
      ],
      json: mixRows.map(({ mix, usdPerMillion }) => ({ mix, usdPerMillion })),
      verdicts: [`P6: authorizer ${round(authMs, 1)} ms per key resolution (${AUTHORIZER_MEMORY_MB} MB); prices ${PRICES.checked}`],
    };
  },
};
