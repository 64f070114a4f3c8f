import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { lambdaContext, toProxyEvent } from '../../../bin/local/api-gateway-event.js';
import { groupHandlerModules } from '../../../bin/local/group-handlers.js';
import { DEMO_PARTNER_CODE } from '../../../bin/local/seed/events.js';
import { matchPath, type RouteDefinition } from '../../../shared/http/route.js';
import { recordCalls, replay, type RecordedCall } from '../support/db-recorder.js';
import { resolveRoute, seededWorkspace } from '../support/seeded-workspace.js';
import { formatSpread, quantile, round, spreadOf } from '../stats.js';
import type { BenchSuite } from '../suite.js';

const RATIO_GOAL = 1.3;
const WARM_UP = 20;
const ITERATIONS = 60;

/** The measured reads: path templates filled from the seeded workspace. */
const CASES: { name: string; path: (ids: Map<string, string>) => string }[] = [
  { name: 'GET /v1/invoices/{invoiceId}', path: (ids) => `/v1/invoices/${ids.get('/v1/invoices/{invoiceId}')}` },
  { name: 'GET /v1/forms/{formId}', path: (ids) => `/v1/forms/${ids.get('/v1/forms/{formId}')}` },
  { name: 'GET /v1/events?limit=20', path: () => '/v1/events?limit=20' },
  { name: 'GET /partner/events', path: () => `/partner/events?referral_code=${DEMO_PARTNER_CODE}&limit=20` },
  { name: 'GET /v1/events/balance', path: () => '/v1/events/balance' },
];

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

function eventFor(route: RouteDefinition, url: URL, workspaceId: string): APIGatewayProxyEvent {
  const authorizer = route.auth === 'key' ? { workspaceId, keyId: 'bench', scope: 'read_write', principalId: 'bench' } : null;
  const request = { method: 'GET', url, path: url.pathname, headers: { host: url.host }, body: Buffer.alloc(0), sourceIp: '127.0.0.1', requestId: 'bench' };
  return toProxyEvent(request, route, matchPath(route.path, url.pathname) ?? {}, authorizer);
}

/**
 * P2: the warm group handler, called in process with an API Gateway event (no HTTP, no authorizer),
 * against the same DynamoDB calls sent directly on the client: what the middleware, validation,
 * mapping and logging layers add to the database round trips. The handler's calls are recorded once and
 * replayed as they were sent; each repetition alternates handler and replay and compares their p50s.
 */
export const handlerOverheadSuite: BenchSuite = {
  id: 'p2',
  title: 'P2 warm handler p50 / the same DynamoDB calls sent directly',
  async run(context) {
    const env = await context.environment();
    const workspace = await seededWorkspace(env);
    const rows: { route: string; ratio: number; spread: ReturnType<typeof spreadOf>; handlerMs: number; rawMs: number; calls: number }[] = [];
    for (const testCase of CASES) {
      const url = new URL(`${env.server.url}${testCase.path(workspace.ids)}`);
      const route = resolveRoute(url.pathname).find((match) => match.route.method === 'GET')?.route;
      if (!route) throw new Error(`P2: no route for ${url.pathname}`);
      const handler = (await groupHandlerModules[route.group]()).handler as Handler;
      const invoke = async () => {
        const result = await handler(eventFor(route, url, workspace.workspaceId), lambdaContext(`boxoffice-${route.group}`, 'bench'));
        if (result.statusCode !== 200) throw new Error(`P2: ${testCase.name} answered ${result.statusCode}: ${result.body}`);
      };
      for (let i = 0; i < WARM_UP; i += 1) await invoke();
      const { calls } = await recordCalls(invoke);
      const recorded: RecordedCall[] = calls;
      for (let i = 0; i < WARM_UP; i += 1) await replay(recorded);
      const ratios: number[] = [];
      const handlerP50s: number[] = [];
      const rawP50s: number[] = [];
      for (let rep = 0; rep < context.reps; rep += 1) {
        const handlerMs: number[] = [];
        const rawMs: number[] = [];
        for (let i = 0; i < ITERATIONS; i += 1) {
          let started = performance.now();
          await invoke();
          handlerMs.push(performance.now() - started);
          started = performance.now();
          await replay(recorded);
          rawMs.push(performance.now() - started);
        }
        const handlerP50 = quantile(handlerMs, 0.5);
        const rawP50 = quantile(rawMs, 0.5);
        handlerP50s.push(handlerP50);
        rawP50s.push(rawP50);
        ratios.push(handlerP50 / rawP50);
      }
      const spread = spreadOf(ratios);
      rows.push({ route: testCase.name, ratio: round(spread.median), spread, handlerMs: round(spreadOf(handlerP50s).median), rawMs: round(spreadOf(rawP50s).median), calls: recorded.length });
    }
    const over = rows.filter((row) => row.ratio > RATIO_GOAL);
    return {
      table: rows.map((row) => ({ route: row.route, 'DynamoDB calls': row.calls, 'handler p50 ms': row.handlerMs, 'raw p50 ms': row.rawMs, 'ratio median (min-max)': formatSpread(row.spread) })),
      json: rows.map(({ route, ratio }) => ({ route, ratio })),
      data: rows,
      verdicts: [`P2 goal (every route <= ${RATIO_GOAL}x its raw calls, median): ${over.length === 0 ? 'met' : `NOT met by ${over.map((row) => row.route).join(', ')}`}`],
    };
  },
};
