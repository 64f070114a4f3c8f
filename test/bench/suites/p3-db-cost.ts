import { routeTable } from '../../../shared/http/routes.js';
import type { RouteDefinition } from '../../../shared/http/route.js';
import { DEMO_PARTNER_CODE } from '../../../bin/local/seed/events.js';
import { parseDbStats } from '../harness.js';
import { recordCalls } from '../support/db-recorder.js';
import { fillPath, routeKey, seededWorkspace, type RouteSample, type SeededWorkspace } from '../support/seeded-workspace.js';
import { round, spreadOf } from '../stats.js';
import type { BenchSuite } from '../suite.js';

/** What a read needs beyond its path parameters. */
const EXTRA_QUERY: Record<string, string> = {
  listPartnerEvents: `?referral_code=${DEMO_PARTNER_CODE}&limit=20`,
};
const FIXED_PARAMS: Record<string, string> = { asset: 'swagger-ui.css' };

/**
 * Bodies for the writes the demo seeders do not send, by operation. They run after the reads, deletes
 * last; whatever status they get (a 409 on a voided invoice still reads it) is shown beside the cost.
 */
const WRITE_BODIES: Record<string, unknown> = {
  editFormSettings: { name: 'Bench form' },
  duplicateForm: {},
  updateFormElement: { prompt: 'Bench prompt' },
  toggleElementOther: { enabled: true, otherPrompt: 'Something else' },
  moveFormElement: { section: 'attendee' },
  updateProperty: { description: 'Bench description' },
  updateContact: { firstName: 'Bench' },
  updateEvent: { name: 'Bench event' },
  updateCheckout: { name: 'Bench checkout' },
  reviseInvoice: {},
  chargeInvoice: {},
  submitFormResponse: { answers: {} },
};

export interface RouteCost {
  route: string;
  group: string;
  auth: string;
  calls: number;
  rcu: number;
  wcu: number;
  items: number;
  /** Median wall time of the request on the in-process local server (ms). */
  ms: number;
  status: number;
  source: 'demo seed' | 'read' | 'write';
}

function pathFor(route: RouteDefinition, ids: Map<string, string>): string | undefined {
  const path = fillPath(route.path, ids, FIXED_PARAMS);
  return path === undefined ? undefined : `${path}${EXTRA_QUERY[route.operation] ?? ''}`;
}

/** One write, once (writes change what they measure): its stats and the commands it sent. */
async function measureWrite(route: RouteDefinition, url: string, apiKey: string | undefined): Promise<{ sample: RouteSample; commands: string[]; body: unknown }> {
  const headers: Record<string, string> = { ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}), 'Content-Type': 'application/json' };
  const body = WRITE_BODIES[route.operation];
  const started = performance.now();
  const { result, calls } = await recordCalls(async () => {
    const response = await fetch(url, { method: route.method, headers, body: route.method === 'DELETE' ? undefined : JSON.stringify(body ?? {}) });
    const text = await response.text();
    return { status: response.status, stats: parseDbStats(response.headers.get('x-db-stats')), text };
  });
  const sample = { status: result.status, stats: result.stats, path: new URL(url).pathname, ms: performance.now() - started };
  return { sample, commands: calls.map((call) => call.commandName), body: result.text ? JSON.parse(result.text) as unknown : undefined };
}

async function measureRead(url: string, apiKey: string | undefined, reps: number): Promise<{ sample: RouteSample; commands: string[] }> {
  const headers: Record<string, string> = apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
  await fetch(url, { headers }).then((response) => response.arrayBuffer()); // warm: module load, authorizer cache
  const times: number[] = [];
  let last: { status: number; stats: Record<string, number> } | undefined;
  const { calls } = await recordCalls(async () => {
    for (let i = 0; i < reps; i += 1) {
      const started = performance.now();
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      times.push(performance.now() - started);
      last = { status: response.status, stats: parseDbStats(response.headers.get('x-db-stats')) };
    }
  });
  const result = last as { status: number; stats: Record<string, number> };
  return { sample: { ...result, path: new URL(url).pathname, ms: spreadOf(times).median }, commands: calls.map((call) => call.commandName) };
}

function costOf(route: RouteDefinition, sample: RouteSample, source: RouteCost['source']): RouteCost {
  return {
    route: routeKey(route), group: route.group, auth: route.auth, calls: sample.stats.calls ?? 0, rcu: sample.stats.rcu ?? 0,
    wcu: sample.stats.wcu ?? 0, items: sample.stats.items ?? 0, ms: round(sample.ms, 1), status: sample.status, source,
  };
}

/**
 * P3: DynamoDB calls and capacity of every route of the route table, from `X-Db-Stats` (the request
 * instrumentation of `shared/db/instrumentation.ts`). Writes are measured on the requests the demo
 * seeders send, the other writes once with a small body; reads are called on what the seeders created.
 * Statuses are shown: a refused write (409, 422) still costs its reads. Asserts that no request issued a
 * Scan (the instrumentation refuses one with a 500, and the recorded commands contain none).
 */
export const dbCostSuite: BenchSuite = {
  id: 'p3',
  title: 'P3 DynamoDB calls and capacity per route (no Scan)',
  async run(context) {
    const env = await context.environment();
    const workspace: SeededWorkspace = await seededWorkspace(env);
    const costs: RouteCost[] = [];
    const notExercised: string[] = [];
    const scans: string[] = [];
    const writes: RouteDefinition[] = [];
    for (const route of routeTable) {
      const seededSamples = workspace.samples.get(routeKey(route))?.filter((sample) => sample.status < 300) ?? [];
      if (seededSamples.length > 0) {
        // The first request's capacity (what a single write costs), the median time of all of them.
        const first = seededSamples[0] as RouteSample;
        costs.push(costOf(route, { ...first, ms: spreadOf(seededSamples.map((sample) => sample.ms)).median }, 'demo seed'));
        continue;
      }
      if (route.method !== 'GET') {
        writes.push(route);
        continue;
      }
      const path = pathFor(route, workspace.ids);
      if (!path) {
        notExercised.push(routeKey(route));
        continue;
      }
      const { sample, commands } = await measureRead(`${env.server.url}${path}`, route.auth === 'key' ? workspace.apiKey : undefined, context.reps);
      if (commands.includes('ScanCommand') || sample.status >= 500) scans.push(`${routeKey(route)} (${sample.status})`);
      costs.push(costOf(route, sample, 'read'));
    }
    // Deletes last, so that the other writes still find what they change.
    writes.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    for (const route of writes) {
      const path = pathFor(route, workspace.ids);
      if (!path) {
        notExercised.push(routeKey(route));
        continue;
      }
      const { sample, commands, body } = await measureWrite(route, `${env.server.url}${path}`, route.auth === 'key' ? workspace.apiKey : undefined);
      if (commands.includes('ScanCommand') || sample.status >= 500) scans.push(`${routeKey(route)} (${sample.status})`);
      const createdId = (body as { data?: { id?: unknown } } | undefined)?.data?.id;
      if (route.operation === 'submitFormResponse' && typeof createdId === 'string') workspace.ids.set('/v1/forms/{formId}/responses/{responseId}', createdId);
      costs.push(costOf(route, sample, 'write'));
    }
    // Reads of what the writes created (a form response).
    for (const key of [...notExercised]) {
      const route = routeTable.find((candidate) => routeKey(candidate) === key && candidate.method === 'GET');
      const path = route ? pathFor(route, workspace.ids) : undefined;
      if (!route || !path) continue;
      const { sample, commands } = await measureRead(`${env.server.url}${path}`, workspace.apiKey, context.reps);
      if (commands.includes('ScanCommand') || sample.status >= 500) scans.push(`${key} (${sample.status})`);
      costs.push(costOf(route, sample, 'read'));
      notExercised.splice(notExercised.indexOf(key), 1);
    }
    if (scans.length > 0) throw new Error(`P3: Scan or server error on ${scans.join(', ')}`);
    return {
      table: costs.map(({ route, calls, rcu, wcu, items, ms, status, source }) => ({ route, calls, rcu, wcu, items, 'ms (local)': ms, status, source })),
      json: costs.map(({ route, calls, rcu }) => ({ route, calls, rcu })),
      data: costs,
      verdicts: [
        `P3: ${costs.length} of ${routeTable.length} routes measured, no Scan${notExercised.length > 0 ? `; not exercised (no seeded request or id): ${notExercised.join(', ')}` : ''}`,
      ],
    };
  },
};
