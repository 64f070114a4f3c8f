import { FAULT_IDEMPOTENCY_TABLE, FAULT_TABLE } from './faults/fault-tables.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTables } from '../../bin/local/bootstrap.js';
import { dynamoClient } from '../../shared/db/client.js';
import { IDEMPOTENCY_TABLE_KEYS, TABLE_KEYS } from '../../shared/db/table-design.js';
import { routeTable } from '../../shared/http/routes.js';
import type { RouteDefinition } from '../../shared/http/route.js';
import { startApi, type ApiResponse, type TestApi } from './support/api.js';
import { FaultInjector, faultsFor, type FaultKind } from './support/fault-injection.js';
import { TableSnapshots, effectSignature, type ItemChange, type Snapshot } from './support/table-snapshot.js';
import { buildFixture, scenarios, type Fixture } from './faults/fault-scenarios.js';

/*
 * Fault injection at every DynamoDB call of every route (issue 13). For each route of the route table:
 * a clean run tells its DynamoDB calls; then, for each call N and each fault that call can really
 * meet, the request runs with call N failing. It must answer what the clean run answered or a 503
 * with Retry-After (the partner listing: its spec's 500, with Retry-After); an error answer must leave
 * no item behind; and a replay (same Idempotency-Key) must end with exactly the clean run's effect.
 */

const injector = new FaultInjector();
let api: TestApi;
let fixture: Fixture;
let tables: TableSnapshots;
let baseline: Snapshot;
let current: Snapshot;

interface Totals {
  routes: number;
  combinations: number;
  answers500: number;
  leftovers: number;
  duplicates: number;
}
const totals: Totals = { routes: 0, combinations: 0, answers500: 0, leftovers: 0, duplicates: 0 };

beforeAll(async () => {
  await ensureTables(process.env.DYNAMODB_ENDPOINT, FAULT_TABLE, FAULT_IDEMPOTENCY_TABLE);
  injector.install(dynamoClient);
  api = await startApi();
  tables = new TableSnapshots(process.env.DYNAMODB_ENDPOINT, [
    { name: FAULT_TABLE, keys: [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey] },
    { name: FAULT_IDEMPOTENCY_TABLE, keys: [IDEMPOTENCY_TABLE_KEYS.partitionKey] },
  ]);
  fixture = await buildFixture(api);
  baseline = await tables.take();
  current = baseline;
}, 120_000);

afterAll(async () => {
  console.log(`Fault injection: ${totals.routes} routes + authorizer, ${totals.combinations} combinations, `
    + `${totals.answers500} answers of 500 (partner listing's spec 500 aside), ${totals.leftovers} items left behind by error answers, `
    + `${totals.duplicates} duplicates on replay`);
  tables?.close();
  await api?.close();
});

function send(route: RouteDefinition, idempotencyKey: string): Promise<ApiResponse> {
  const request = scenarios[route.operation]?.(fixture);
  if (!request) throw new Error(`No fault scenario for ${route.operation}: add one to test/integration/faults/fault-scenarios.ts`);
  const headers: Record<string, string> = {};
  if (route.method === 'POST' && route.idempotent !== false) headers['Idempotency-Key'] = idempotencyKey;
  if (request.contentType) headers['content-type'] = request.contentType;
  return api.request(route.method, request.path, {
    ...(route.auth === 'key' ? { key: fixture.workspace.apiKey } : {}),
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(request.raw ? { raw: request.raw } : {}),
    headers,
  });
}

/** Runs the request from the baseline state; returns its answer and what it changed. */
async function run(route: RouteDefinition, idempotencyKey: string, fault?: { call: number; kind: FaultKind }) {
  await tables.restore(baseline, current);
  return attempt(route, idempotencyKey, fault);
}

/** Runs the request on the current state (a replay); returns its answer and the changes since the baseline. */
async function attempt(route: RouteDefinition, idempotencyKey: string, fault?: { call: number; kind: FaultKind }) {
  injector.record(fault);
  const response = await send(route, idempotencyKey).catch((error: unknown) => {
    injector.stop();
    throw error;
  });
  const calls = injector.stop();
  current = await tables.take();
  return { response, calls, changes: tables.diff(baseline, current) };
}

const mainTable = (changes: readonly ItemChange[]) => changes.filter((change) => change.table === FAULT_TABLE);

/** The statuses a faulted request may answer: the clean one, or "retry later". */
function acceptable(route: RouteDefinition, response: ApiResponse, cleanStatus: number): string | undefined {
  const status = response.status;
  if (status === cleanStatus) return undefined;
  const retryAfter = response.headers.get('retry-after');
  if (route.errorFormat === 'flat' && status === 500) {
    return retryAfter ? undefined : 'partner 500 without Retry-After';
  }
  if (status === 503) return retryAfter ? undefined : '503 without Retry-After';
  return `answered ${status} ${response.text.slice(0, 160)}`;
}

describe('fault injection at every DynamoDB call of every route', () => {
  it('has a scenario for every route of the route table', () => {
    const missing = routeTable.filter((route) => !scenarios[route.operation]).map((route) => route.operation);
    expect(missing).toEqual([]);
  });

  const only = process.env.FAULT_ROUTES?.split(',');
  for (const route of routeTable.filter((candidate) => !only || only.includes(candidate.operation))) {
    it(`${route.method} ${route.path} (${route.operation})`, async () => {
      // Prepare: what one clean request does, and what a second one (a replay) answers.
      const clean = await run(route, `clean-${route.operation}`);
      expect(clean.response.status, `clean run: ${clean.response.text}`).toBeLessThan(300);
      const cleanMainEffect = effectSignature(mainTable(clean.changes));
      const second = await attempt(route, `clean-${route.operation}`);
      const replayStatusAfterSuccess = second.response.status;
      totals.routes += 1;

      const failures: string[] = [];
      for (const [index, call] of clean.calls.entries()) {
        for (const kind of faultsFor(call.command)) {
          // Act
          const label = `call ${index + 1} (${call.command}) ${kind}`;
          const key = `fault-${route.operation}-${index + 1}-${kind}`;
          const faulted = await run(route, key, { call: index + 1, kind });
          totals.combinations += 1;
          // Assess: the answer
          const wrong = acceptable(route, faulted.response, clean.response.status);
          if (faulted.response.status === 500 && route.errorFormat !== 'flat') totals.answers500 += 1;
          if (wrong) failures.push(`${label}: ${wrong}`);
          // ... nothing left behind by an error answer
          const failed = faulted.response.status !== clean.response.status;
          const leftBehind = failed ? mainTable(faulted.changes) : [];
          if (leftBehind.length > 0) {
            totals.leftovers += leftBehind.length;
            failures.push(`${label}: error answer ${faulted.response.status} left ${effectSignature(leftBehind)}`);
          }
          // ... and a replay ends with exactly one effect
          const replay = await attempt(route, key);
          const expectedReplay = failed ? clean.response.status : replayStatusAfterSuccess;
          if (replay.response.status !== expectedReplay) {
            failures.push(`${label}: replay answered ${replay.response.status} (expected ${expectedReplay}) ${replay.response.text.slice(0, 160)}`);
          }
          const mainEffect = effectSignature(mainTable(replay.changes));
          if (mainEffect !== cleanMainEffect) {
            totals.duplicates += 1;
            failures.push(`${label}: after replay [${mainEffect}] instead of [${cleanMainEffect}]`);
          }
        }
      }
      expect(failures).toEqual([]);
    }, 300_000);
  }
});
