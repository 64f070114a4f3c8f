import type { Tenant } from './tenants.js';

/** Response headers whose values a client depends on; compared between the local server and the deployment. */
export const HEADERS_THAT_MATTER = [
  'content-type', 'cache-control', 'allow', 'retry-after', 'idempotent-replayed', 'location',
  'access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers',
  'access-control-expose-headers', 'access-control-max-age',
] as const;

export interface CallOptions {
  /** Which key to send: the tenant's read-write key (default), its read-only key, none, or a literal header value. */
  readonly key?: 'rw' | 'ro' | 'none' | { readonly authorization: string };
  readonly body?: unknown;
  readonly raw?: Uint8Array | string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface FlowResponse {
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
  readonly text: string;
}

export interface FlowContext {
  readonly tenant: Tenant;
  /** The API root (`http://127.0.0.1:3000` locally, the stage URL deployed). */
  readonly baseUrl: string;
  /** Sends a request and records it under `label` for the comparison. */
  call(label: string, method: string, path: string, options?: CallOptions): Promise<FlowResponse>;
  /** An assertion that must hold in every environment (e.g. a checkout shows the image URL the images API answers). */
  check(condition: boolean, message: string): void;
}

/** A representative sequence of requests of one endpoint group. Add one to `flows/` to cover a new path. */
export interface Flow {
  readonly name: string;
  run(context: FlowContext): Promise<void>;
}

export interface Exchange {
  readonly label: string;
  readonly request: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly hasRequestId: boolean;
  readonly shape: unknown;
  /** Error bodies are fixed texts: compared in full. */
  readonly errorBody?: string;
}

export interface FlowRun {
  readonly environment: string;
  readonly exchanges: Exchange[];
  readonly failures: string[];
}

/** The shape of a JSON value: keys and types, with ids, timestamps and URLs recognised as such. */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value === null) return null;
  if (typeof value === 'object') {
    // Maps keyed by ids (answers, contact properties) differ only in the ids each environment minted. Ids
    // end in a random tail, so ids minted in the same millisecond sort differently in each environment:
    // the id-keyed entries are compared in the order of their shapes, not of their ids.
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    const isId = (key: string) => /^[a-f0-9]{24}$/.test(key);
    const byId = keys.filter(isId).map((key) => shapeOf(record[key])).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    return Object.fromEntries([
      ...keys.filter((key) => !isId(key)).map((key) => [key, shapeOf(record[key])]),
      ...byId.map((shape, index) => [`<id ${index}>`, shape]),
    ]);
  }
  if (typeof value === 'string') {
    if (/^[a-f0-9]{24}$/.test(value)) return '<id>';
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value)) return '<date-time>';
    if (/^https?:\/\//.test(value)) return '<url>';
    return '<string>';
  }
  if (typeof value === 'boolean') return value;
  return `<${typeof value}>`;
}

export interface Target {
  readonly environment: string;
  readonly baseUrl: string;
  readonly tenant: Tenant;
}

export async function runFlow(flow: Flow, target: Target): Promise<FlowRun> {
  const run: FlowRun = { environment: target.environment, exchanges: [], failures: [] };
  const context: FlowContext = {
    tenant: target.tenant,
    baseUrl: target.baseUrl,
    async call(label, method, path, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      const key = options.key ?? 'rw';
      if (key === 'rw') headers.Authorization = `Bearer ${target.tenant.apiKey}`;
      else if (key === 'ro') headers.Authorization = `Bearer ${target.tenant.readOnlyKey}`;
      else if (key !== 'none') headers.Authorization = key.authorization;
      let body: Uint8Array | string | undefined = options.raw;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['Content-Type'] ??= 'application/json';
      }
      const response = await fetch(`${target.baseUrl}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      const json = (response.headers.get('content-type') ?? '').includes('json');
      if (json && text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          run.failures.push(`${label}: a JSON content type with a body that is not JSON`);
        }
      }
      run.exchanges.push({
        label,
        request: `${method} ${path.split('?')[0]}`,
        status: response.status,
        headers: Object.fromEntries(HEADERS_THAT_MATTER.flatMap((name) => {
          const value = response.headers.get(name);
          return value === null ? [] : [[name, value]];
        })),
        hasRequestId: Boolean(response.headers.get('x-request-id')),
        shape: text.length === 0 ? '<empty>' : json ? shapeOf(parsed) : '<text>',
        ...(response.status >= 400 ? { errorBody: text.replace(/[a-f0-9]{24}/g, '<id>') } : {}),
      });
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    check(condition, message) {
      if (!condition) run.failures.push(message);
    },
  };
  try {
    await flow.run(context);
  } catch (error) {
    run.failures.push(`the flow stopped: ${(error as Error).message}`);
  }
  return run;
}

function diffShapes(local: unknown, deployed: unknown, path: string, out: string[]): void {
  if (JSON.stringify(local) === JSON.stringify(deployed)) return;
  if (local && deployed && typeof local === 'object' && typeof deployed === 'object' && Array.isArray(local) === Array.isArray(deployed)) {
    const keys = new Set([...Object.keys(local), ...Object.keys(deployed)]);
    for (const key of keys) diffShapes((local as Record<string, unknown>)[key], (deployed as Record<string, unknown>)[key], Array.isArray(local) ? `${path}[${key}]` : `${path}.${key}`, out);
    return;
  }
  out.push(`body ${path}: local ${JSON.stringify(local)}, deployed ${JSON.stringify(deployed)}`);
}

/** Every way the deployed run differs from the local one, as readable lines (empty when they agree). */
export function compareRuns(local: FlowRun, deployed: FlowRun): string[] {
  const differences: string[] = [
    ...local.failures.map((failure) => `local: ${failure}`),
    ...deployed.failures.map((failure) => `deployed: ${failure}`),
  ];
  const count = Math.max(local.exchanges.length, deployed.exchanges.length);
  for (let index = 0; index < count; index += 1) {
    const a = local.exchanges[index];
    const b = deployed.exchanges[index];
    if (!a || !b) {
      differences.push(`step ${index + 1} (${(a ?? b)?.label}) ran only ${a ? 'locally' : 'deployed'}`);
      continue;
    }
    const step = `${a.label} (${a.request})`;
    if (a.status !== b.status) differences.push(`${step}: status local ${a.status}, deployed ${b.status}${b.errorBody ? ` ${b.errorBody}` : ''}`);
    for (const name of HEADERS_THAT_MATTER) {
      // An empty answer (204, preflight) has no content to type: API Gateway labels MOCK answers JSON anyway.
      if (name === 'content-type' && a.shape === '<empty>' && b.shape === '<empty>') continue;
      if (a.headers[name] !== b.headers[name]) differences.push(`${step}: header ${name} local ${JSON.stringify(a.headers[name])}, deployed ${JSON.stringify(b.headers[name])}`);
    }
    if (a.hasRequestId !== b.hasRequestId) differences.push(`${step}: X-Request-Id local ${a.hasRequestId}, deployed ${b.hasRequestId}`);
    const shapeDifferences: string[] = [];
    diffShapes(a.shape, b.shape, '$', shapeDifferences);
    differences.push(...shapeDifferences.map((line) => `${step}: ${line}`));
    if (a.status === b.status && a.errorBody !== b.errorBody) differences.push(`${step}: error body local ${a.errorBody}, deployed ${b.errorBody}`);
  }
  return differences;
}
