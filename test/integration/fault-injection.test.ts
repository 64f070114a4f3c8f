import { FAULT_IDEMPOTENCY_TABLE, FAULT_TABLE } from './faults/fault-tables.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTables } from '../../bin/local/bootstrap.js';
import { dynamoClient } from '../../shared/db/client.js';
import { IDEMPOTENCY_TABLE_KEYS, TABLE_KEYS } from '../../shared/db/table-design.js';
import { routeTable } from '../../shared/http/routes.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RouteDefinition } from '../../shared/http/route.js';
import { startApi, type ApiResponse, type TestApi } from './support/api.js';
import { FaultInjector, faultsFor, type ArmedFault } from './support/fault-injection.js';
import { TableSnapshots, effectContent, effectSignature, type ItemChange, type Snapshot } from './support/table-snapshot.js';
import { buildFixture, scenarios, type Fixture } from './faults/fault-scenarios.js';
import { openApiDocument } from '../../shared/openapi/document.js';
import { answerViolations } from '../support/documented-schema.js';

/*
 * Fault injection at every DynamoDB call of every route (issue 13). For each route of the route table:
 * a clean run tells its DynamoDB calls; then, for each call N and each fault that call can really
 * meet, the request runs with call N failing. It must answer what the clean run answered or a 503
 * with Retry-After (the partner listing: its spec's 500, with Retry-After), as the OpenAPI document
 * says the route answers it; an error answer must leave
 * no item behind; and a replay (same Idempotency-Key) must end with exactly the clean run's effect.
 */

const injector = new FaultInjector();
const document = openApiDocument() as unknown as Record<string, unknown>;
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
  lapsedReplays: number;
  /** Lapsed-lock replays that applied the work again, of operations listed in LAPSE_PENDING. */
  pendingDuplicates: number;
}
const totals: Totals = { routes: 0, combinations: 0, answers500: 0, leftovers: 0, duplicates: 0, lapsedReplays: 0, pendingDuplicates: 0 };

/**
 * Lets every idempotency record still "in progress" lapse, as its lock does once the function's time
 * is over: a replay then runs the operation again, and only the "applied" marker stops a second change.
 */
async function lapseInProgressRecords(): Promise<void> {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT }));
  try {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: FAULT_IDEMPOTENCY_TABLE }));
    for (const item of Items.filter((candidate) => candidate.status === 'INPROGRESS')) {
      await client.send(new UpdateCommand({
        TableName: FAULT_IDEMPOTENCY_TABLE,
        Key: { [IDEMPOTENCY_TABLE_KEYS.partitionKey]: item[IDEMPOTENCY_TABLE_KEYS.partitionKey] },
        UpdateExpression: 'SET in_progress_expiration = :past',
        ExpressionAttributeValues: { ':past': 1 },
      }));
    }
  } finally {
    client.destroy();
  }
}

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
    + `${totals.duplicates} duplicates on replay; ${totals.lapsedReplays} replays after a lapsed idempotency lock, `
    + `${totals.pendingDuplicates} of them applied twice by operations still writing outside the toolkit (LAPSE_PENDING)`);
  tables?.close();
  await api?.close();
});

async function send(route: RouteDefinition, idempotencyKey: string): Promise<ApiResponse> {
  const request = scenarios[route.operation]?.(fixture);
  if (!request) throw new Error(`No fault scenario for ${route.operation}: add one to test/integration/faults/fault-scenarios.ts`);
  await request.prepare?.();
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
async function run(route: RouteDefinition, idempotencyKey: string, fault?: ArmedFault) {
  await tables.restore(baseline, current);
  return attempt(route, idempotencyKey, fault);
}

/** Runs the request on the current state (a replay); returns its answer and the changes since the baseline. */
async function attempt(route: RouteDefinition, idempotencyKey: string, fault?: ArmedFault) {
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
  const undocumented = answerViolations(document, route.path, route.method, status, JSON.parse(response.text || 'null'));
  if (undocumented.length > 0) return `answered ${status}, not as documented: ${undocumented.join('; ')}`;
  if (route.errorFormat === 'flat' && status === 500) {
    return retryAfter ? undefined : 'partner 500 without Retry-After';
  }
  if (status === 503) return retryAfter ? undefined : '503 without Retry-After';
  return `answered ${status} ${response.text.slice(0, 160)}`;
}

/**
 * Operations that still write outside the persistence toolkit (raw SDK commands), so their writes do
 * not carry the request's "applied" marker and a replay after a lapsed lock applies them again. They
 * leave this list as their domain moves onto the toolkit: a listed operation that already keeps the
 * rule fails the suite, so the list stays honest.
 */
const LAPSE_PENDING: readonly string[] = [];

/** A faulted run and its replay, checked; returns what went wrong. */
async function faultAndReplay(route: RouteDefinition, clean: Baseline, label: string, key: string, fault: ArmedFault, replay: boolean): Promise<string[]> {
  const failures: string[] = [];
  const faulted = await run(route, key, fault);
  totals.combinations += 1;
  // The answer: what the clean run answered, or "retry later".
  const wrong = acceptable(route, faulted.response, clean.status);
  if (faulted.response.status === 500 && route.errorFormat !== 'flat') totals.answers500 += 1;
  if (wrong) failures.push(`${label}: ${wrong}`);
  // Nothing left behind by an error answer.
  const failed = faulted.response.status !== clean.status;
  const leftBehind = failed ? mainTable(faulted.changes) : [];
  if (leftBehind.length > 0) {
    totals.leftovers += leftBehind.length;
    failures.push(`${label}: error answer ${faulted.response.status} left ${effectSignature(leftBehind)}`);
  }
  if (!replay) return failures;
  // A replay (same Idempotency-Key) ends with exactly the clean run's effect.
  const again = await attempt(route, key);
  const expected = failed ? clean.status : clean.replayStatus;
  if (again.response.status !== expected) {
    failures.push(`${label}: replay answered ${again.response.status} (expected ${expected}) ${again.response.text.slice(0, 160)}`);
  }
  if (effectContent(mainTable(again.changes)) !== clean.content) {
    totals.duplicates += 1;
    failures.push(`${label}: after replay [${effectSignature(mainTable(again.changes))}] instead of [${clean.effect}]${differenceOf(clean, again.changes)}`);
  }
  return failures;
}

/** When the counts agree but the content does not (a change applied twice inside one item): the first differing item. */
function differenceOf(clean: Baseline, changes: readonly ItemChange[]): string {
  const expected = new Set(clean.content.split('\n'));
  const extra = effectContent(mainTable(changes)).split('\n').find((line) => !expected.has(line));
  return extra ? `; unexpected ${extra.slice(0, 300)}` : '';
}

interface Baseline {
  status: number;
  /** What a second identical request answers (a replay of a success). */
  replayStatus: number;
  /** The clean run's changes to the main table: counts per entity, and normalized content. */
  effect: string;
  content: string;
  calls: { command: string }[];
}

/** One clean run of the route (and a replay of it): its answer, effect and DynamoDB calls. */
async function baselineOf(route: RouteDefinition): Promise<Baseline> {
  const clean = await run(route, `clean-${route.operation}`);
  expect(clean.response.status, `clean run: ${clean.response.text}`).toBeLessThan(300);
  const second = await attempt(route, `clean-${route.operation}`);
  const changes = mainTable(clean.changes);
  return { status: clean.response.status, replayStatus: second.response.status, effect: effectSignature(changes), content: effectContent(changes), calls: clean.calls };
}

const isIdempotentPost = (route: RouteDefinition) => route.method === 'POST' && route.idempotent !== false;

describe('fault injection at every DynamoDB call of every route', () => {
  it('has a scenario for every route of the route table', () => {
    const missing = routeTable.filter((route) => !scenarios[route.operation]).map((route) => route.operation);
    expect(missing).toEqual([]);
  });

  it('the authorizer: its DynamoDB call failing is a 503 with Retry-After, never a 401 or a 500', async () => {
    // The authorizer makes the same single call for every key route: exercised once, on GET /v1.
    const route = routeTable.find((candidate) => candidate.operation === 'getApiInfo') as RouteDefinition;
    const clean = await baselineOf(route);
    expect(clean.calls).toHaveLength(1);
    const failures: string[] = [];
    for (const kind of faultsFor(clean.calls[0]?.command ?? '')) {
      failures.push(...await faultAndReplay(route, clean, `authorizer ${kind}`, `authorizer-${kind}`, { call: 1, kind }, false));
    }
    expect(failures).toEqual([]);
  });

  const only = process.env.FAULT_ROUTES?.split(',');
  for (const route of routeTable.filter((candidate) => !only || only.includes(candidate.operation))) {
    it(`${route.method} ${route.path} (${route.operation})`, async () => {
      // Prepare: what one clean request does; for key routes, call 1 is the authorizer's (tested above).
      const clean = await baselineOf(route);
      const first = route.auth === 'key' ? 1 : 0;
      totals.routes += 1;
      const failures: string[] = [];
      // Act + Assess: every call, every fault it can meet. A read changes nothing: no replay needed.
      for (const [index, call] of clean.calls.entries()) {
        if (index < first) continue;
        for (const kind of faultsFor(call.command)) {
          const label = `call ${index + 1} (${call.command}) ${kind}`;
          failures.push(...await faultAndReplay(route, clean, label, `fault-${route.operation}-${index + 1}-${kind}`, { call: index + 1, kind }, route.method !== 'GET'));
        }
      }
      if (isIdempotentPost(route)) failures.push(...await lapsedLockReplay(route, clean));
      expect(failures).toEqual([]);
    }, 300_000);
  }
});

/**
 * The idempotency table stays down once the work ran: the committed work is still the answer; and once
 * the record's lock lapses, a replay must not apply the work a second time (it answers the same, or
 * 409 "already applied").
 */
async function lapsedLockReplay(route: RouteDefinition, clean: Baseline): Promise<string[]> {
  const failures: string[] = [];
  const key = `lapse-${route.operation}`;
  const committed = await run(route, key, { call: 1, kind: 'server-error', persistent: true, table: FAULT_IDEMPOTENCY_TABLE, command: 'UpdateItemCommand' });
  if (committed.response.status !== clean.status) {
    failures.push(`idempotency table down after the work: answered ${committed.response.status} ${committed.response.text.slice(0, 160)}`);
  }
  await lapseInProgressRecords();
  const replay = await attempt(route, key);
  totals.lapsedReplays += 1;
  if (replay.response.status !== clean.status && replay.response.status !== 409) {
    failures.push(`replay after the lock lapsed: answered ${replay.response.status} ${replay.response.text.slice(0, 160)}`);
  }
  const duplicated = effectContent(mainTable(replay.changes)) !== clean.content;
  if (duplicated && !LAPSE_PENDING.includes(route.operation)) {
    totals.duplicates += 1;
    failures.push(`replay after the lock lapsed: [${effectSignature(mainTable(replay.changes))}] instead of [${clean.effect}]${differenceOf(clean, replay.changes)}`);
  }
  if (duplicated && LAPSE_PENDING.includes(route.operation)) totals.pendingDuplicates += 1;
  if (!duplicated && LAPSE_PENDING.includes(route.operation)) {
    failures.push(`${route.operation} no longer applies a lapsed replay twice: remove it from LAPSE_PENDING`);
  }
  return failures;
}
