import { routeTable } from '../../../shared/http/routes.js';
import type { RouteDefinition } from '../../../shared/http/route.js';
import { createRouteResolver } from '../../../bin/local/route-resolver.js';
import { createSeedClient, type SeedClient } from '../../../bin/local/seed/seed-client.js';
import { seeders } from '../../../bin/local/seed/index.js';
import { createApiKey, createWorkspace } from '../../../shared/workspaces/workspaces-repository.js';
import { parseDbStats, type BenchEnvironment } from '../harness.js';
import { groupHandlerModules } from '../../../bin/local/group-handlers.js';

export interface RouteSample {
  readonly status: number;
  readonly stats: Record<string, number>;
  readonly path: string;
  /** Wall time of the request against the in-process local server. */
  readonly ms: number;
}

export interface SeededWorkspace {
  readonly workspaceId: string;
  readonly apiKey: string;
  /** Every request the demo seeders made, by route (`GET /v1/forms/{formId}`). */
  readonly samples: Map<string, RouteSample[]>;
  /** Ids the seeders created, by the item path they fill (`/v1/forms/{formId}`, `/v1/events/{id}`). */
  readonly ids: Map<string, string>;
}

export const resolveRoute = createRouteResolver(routeTable);

export function routeKey(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

export function routeOf(method: string, url: string): RouteDefinition | undefined {
  const pathname = new URL(url).pathname;
  return resolveRoute(pathname).find((match) => match.route.method === method)?.route;
}

/** The item path whose parameter a POST on `path` creates: `/v1/events` -> `/v1/events/{id}`. */
function createdItemPath(path: string): string | undefined {
  const item = routeTable.find((route) => /\/\{[^/]+\}$/.test(route.path)
    && (route.path.replace(/\/\{[^/]+\}$/, '') === path || route.path.replace(/\/\{[^/]+\}$/, '') === `/v1${path}`));
  return item?.path;
}

/**
 * A concrete path for a route template, each parameter taken from the seeded item it names (by the
 * template up to that parameter, else by the parameter's name); undefined when one is unknown.
 */
export function fillPath(template: string, ids: Map<string, string>, fixed: Record<string, string> = {}): string | undefined {
  const segments = template.split('/');
  const out: string[] = [];
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i] as string;
    const param = /^\{([^}]+)\}$/.exec(segment)?.[1];
    if (!param) {
      out.push(segment);
      continue;
    }
    const prefix = segments.slice(0, i + 1).join('/');
    const value = fixed[param] ?? ids.get(prefix) ?? ids.get(`/v1${prefix}`)
      ?? [...ids].find(([path]) => path.endsWith(`/{${param}}`) && param !== 'id')?.[1];
    if (value === undefined) return undefined;
    out.push(value);
  }
  return out.join('/');
}

let seeded: Promise<SeededWorkspace> | undefined;

/**
 * A workspace filled by the demo seeders of `npm start`, through the API itself: every request they send
 * is recorded with its `X-Db-Stats`, and the ids they create feed the read routes. Seeded once per run.
 */
export function seededWorkspace(env: BenchEnvironment): Promise<SeededWorkspace> {
  seeded ??= (async () => {
    // Load every handler first, so that no recorded request carries a module load.
    await Promise.all([...Object.values(groupHandlerModules).map((load) => load()), import('../../../functions/authorizer/handler.js')]);
    const workspaceId = (await createWorkspace('Bench seeded')).id;
    const { apiKey } = await createApiKey(workspaceId, 'read_write');
    const samples = new Map<string, RouteSample[]>();
    const ids = new Map<string, string>();
    const inner = createSeedClient(env.server.url, workspaceId, apiKey);
    const client: SeedClient = {
      ...inner,
      async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
        const url = `${env.server.url}${path}`;
        const started = performance.now();
        const response = await fetch(url, {
          method,
          headers: { Authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : body instanceof Uint8Array ? body : JSON.stringify(body),
        });
        const text = await response.text();
        const ms = performance.now() - started;
        const route = routeOf(method, url);
        if (route) {
          const list = samples.get(routeKey(route)) ?? [];
          list.push({ status: response.status, stats: parseDbStats(response.headers.get('x-db-stats')), path, ms });
          samples.set(routeKey(route), list);
        }
        if (!response.ok) throw new Error(`Seeding ${method} ${path} failed with ${response.status}: ${text}`);
        const parsed = (text ? JSON.parse(text) : undefined) as T;
        const id = (parsed as { data?: { id?: unknown } } | undefined)?.data?.id;
        const itemPath = route && method === 'POST' ? createdItemPath(route.path) : undefined;
        if (itemPath && typeof id === 'string') ids.set(itemPath, id);
        return parsed;
      },
    };
    for (const seeder of seeders) await seeder.seed(client);
    return { workspaceId, apiKey, samples, ids };
  })();
  return seeded;
}
