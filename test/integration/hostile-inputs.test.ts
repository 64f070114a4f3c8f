import { HOSTILE_IDEMPOTENCY_TABLE, HOSTILE_TABLE } from './hostile/hostile-tables.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTables } from '../../bin/local/bootstrap.js';
import { IDEMPOTENCY_TABLE_KEYS, TABLE_KEYS } from '../../shared/db/table-design.js';
import { routeTable } from '../../shared/http/routes.js';
import type { RouteDefinition } from '../../shared/http/route.js';
import { MAX_JSON_DEPTH } from '../../shared/http/input-hygiene.js';
import { MAX_IMAGE_BYTES } from '../../shared/http/routes/images.js';
import { solidPng } from '../../shared/images/sample-images.js';
import { startApi, type ApiResponse, type TestApi } from './support/api.js';
import { TableSnapshots, type Snapshot } from './support/table-snapshot.js';
import { buildFixture, scenarios, type Fixture } from './faults/fault-scenarios.js';

/*
 * Hostile inputs at every write route of the route table (issue 15, "Done when"): each route's valid
 * request (the fault suite's scenario) is broken in every way a client or an attacker can break it
 * (bad JSON, empty and non-object bodies, wrong content types, oversized bodies, wrong types, huge
 * numbers and strings, NUL and lone surrogates in every string, deep nesting, `__proto__`, extra
 * fields) and must be answered with the expected 4xx in the error envelope, with nothing changed in
 * the tables. The suite owns its tables, so a Scan sees exactly what its requests wrote.
 */

let api: TestApi;
let fixture: Fixture;
let tables: TableSnapshots;
let baseline: Snapshot;

beforeAll(async () => {
  await ensureTables(process.env.DYNAMODB_ENDPOINT, HOSTILE_TABLE, HOSTILE_IDEMPOTENCY_TABLE);
  api = await startApi();
  tables = new TableSnapshots(process.env.DYNAMODB_ENDPOINT, [
    { name: HOSTILE_TABLE, keys: [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey] },
    { name: HOSTILE_IDEMPOTENCY_TABLE, keys: [IDEMPOTENCY_TABLE_KEYS.partitionKey] },
  ]);
  fixture = await buildFixture(api);
  baseline = await tables.take();
}, 120_000);

afterAll(async () => {
  tables?.close();
  await api?.close();
});

type Json = Record<string, unknown>;

interface Hostile {
  name: string;
  /** A JSON value sent as is, or a raw body (string or bytes). */
  body?: unknown;
  raw?: string | Uint8Array;
  contentType?: string;
  /** Appended to the route's query string. */
  query?: string;
  status: number;
  code: string;
  /** A `details` path the answer must name (itself or a path under it). */
  path?: string;
}

/** Every leaf of a JSON value with its path, written as error details write it (`a.b[0].c`). */
function leaves(value: unknown, path = ''): { path: string; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((entry, index) => leaves(entry, `${path}[${index}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, entry]) => leaves(entry, path ? `${path}.${key}` : key));
  }
  return [{ path, value }];
}

/** A copy of `body` with the leaf at `path` replaced. */
function replaced(body: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(body) as Json;
  const segments = path.match(/[^.[\]]+/g) as string[];
  let holder: Json = copy;
  for (const segment of segments.slice(0, -1)) holder = holder[segment] as Json;
  holder[segments.at(-1) as string] = value;
  return copy;
}

/** A value of another JSON type than `value`. */
function wrongType(value: unknown): unknown {
  if (typeof value === 'string') return 12_345;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return String(value);
  return 'not-an-object';
}

const TOO_DEEP = 10_000;
const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const OVER_ONE_MIB = 'x'.repeat(1024 * 1024 + 1);

/** Hostile variants of a JSON-body route, built from its valid body. */
function jsonBodyVariants(valid: Json): Hostile[] {
  const text = JSON.stringify(valid);
  const withField = (json: string) => (text === '{}' ? `{${json}}` : `{${json},${text.slice(1)}`);
  const variants: Hostile[] = [
    { name: 'an empty body', raw: '', contentType: 'application/json', status: 400, code: 'invalid_json' },
    { name: 'truncated JSON', raw: text.slice(0, -1), contentType: 'application/json', status: 400, code: 'invalid_json' },
    { name: 'JSON with a trailing comma', raw: text === '{}' ? '{,}' : text.replace(/}$/, ',}'), contentType: 'application/json', status: 400, code: 'invalid_json' },
    { name: 'a JSON array', raw: `[${text}]`, contentType: 'application/json', status: 400, code: 'invalid_json' },
    { name: 'a JSON string', raw: JSON.stringify(text), contentType: 'application/json', status: 400, code: 'invalid_json' },
    { name: 'JSON null', raw: 'null', contentType: 'application/json', status: 400, code: 'invalid_json' },
    { name: 'the body as text/plain', raw: text, contentType: 'text/plain', status: 415, code: 'unsupported_media_type' },
    { name: 'a form-encoded body', raw: 'name=x&amount=1', contentType: 'application/x-www-form-urlencoded', status: 415, code: 'unsupported_media_type' },
    { name: 'JSON declared in another charset', raw: text, contentType: 'application/json; charset=iso-8859-1', status: 415, code: 'unsupported_media_type' },
    { name: 'a multipart body', raw: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--', contentType: 'multipart/form-data; boundary=b', status: 415, code: 'unsupported_media_type' },
    { name: 'a body over 1 MiB', body: { ...valid, padding: OVER_ONE_MIB }, status: 413, code: 'payload_too_large' },
    { name: 'an unknown field', body: { ...valid, unexpectedField: true }, status: 422, code: 'validation_failed', path: 'unexpectedField' },
    { name: 'an own __proto__ key', raw: withField('"__proto__":{"isAdmin":true}'), contentType: 'application/json', status: 422, code: 'validation_failed', path: '__proto__' },
    { name: 'a constructor.prototype key', body: { ...valid, constructor: { prototype: { isAdmin: true } } }, status: 422, code: 'validation_failed', path: 'constructor' },
    { name: `nesting ${TOO_DEEP} levels deep`, raw: withField(`"deep":${deepJson(TOO_DEEP)}`), contentType: 'application/json', status: 422, code: 'validation_failed', path: 'deep' },
    { name: `nesting ${MAX_JSON_DEPTH + 1} levels deep`, raw: withField(`"deep":${deepJson(MAX_JSON_DEPTH + 1)}`), contentType: 'application/json', status: 422, code: 'validation_failed', path: 'deep' },
    { name: 'a NUL in a field name', raw: withField('"na\\u0000me":"x"'), contentType: 'application/json', status: 422, code: 'validation_failed' },
  ];
  for (const leaf of leaves(valid)) {
    if (leaf.path === '') continue;
    variants.push({ name: `a wrong type at ${leaf.path}`, body: replaced(valid, leaf.path, wrongType(leaf.value)), status: 422, code: 'validation_failed', path: leaf.path });
    variants.push({ name: `an object at ${leaf.path}`, body: replaced(valid, leaf.path, { nested: leaf.value }), status: 422, code: 'validation_failed', path: leaf.path });
    if (typeof leaf.value === 'string') {
      variants.push({ name: `a 100,000-character string at ${leaf.path}`, body: replaced(valid, leaf.path, 'x'.repeat(100_000)), status: 422, code: 'validation_failed', path: leaf.path });
      variants.push({ name: `a NUL at ${leaf.path}`, body: replaced(valid, leaf.path, `${leaf.value}\u0000`), status: 422, code: 'validation_failed', path: leaf.path });
      variants.push({
        name: `a lone surrogate at ${leaf.path}`, raw: JSON.stringify(replaced(valid, leaf.path, `${leaf.value}@@SURROGATE@@`)).replace('@@SURROGATE@@', '\\ud800'),
        contentType: 'application/json', status: 422, code: 'validation_failed', path: leaf.path,
      });
    }
    if (typeof leaf.value === 'number') {
      variants.push({ name: `1e300 at ${leaf.path}`, body: replaced(valid, leaf.path, 1e300), status: 422, code: 'validation_failed', path: leaf.path });
      // -2, not -1: -1 is a valid option index (the Other option).
      variants.push({ name: `a negative number at ${leaf.path}`, body: replaced(valid, leaf.path, -leaf.value - 2), status: 422, code: 'validation_failed', path: leaf.path });
      if (Number.isInteger(leaf.value)) variants.push({ name: `a fraction at ${leaf.path}`, body: replaced(valid, leaf.path, leaf.value + 0.5), status: 422, code: 'validation_failed', path: leaf.path });
    }
  }
  return variants;
}

/** Hostile variants of a route that takes no body (deletes, finalize, void, rotate-secret...). */
function noBodyVariants(): Hostile[] {
  return [
    { name: 'a field', body: { unexpectedField: true }, status: 422, code: 'validation_failed', path: 'unexpectedField' },
    { name: 'an own __proto__ key', raw: '{"__proto__":{"isAdmin":true}}', contentType: 'application/json', status: 422, code: 'validation_failed', path: '__proto__' },
    { name: 'bad JSON', raw: '{"a":', contentType: 'application/json', status: 400, code: 'invalid_json' },
    { name: 'a JSON array', raw: '[]', contentType: 'application/json', status: 400, code: 'invalid_json' },
    { name: 'a text/plain body', raw: 'hello', contentType: 'text/plain', status: 415, code: 'unsupported_media_type' },
    { name: 'a body over 1 MiB', raw: JSON.stringify({ padding: OVER_ONE_MIB }), contentType: 'application/json', status: 413, code: 'payload_too_large' },
  ];
}

/** Hostile variants of the raw image upload. */
function imageVariants(): Hostile[] {
  const png = new Uint8Array(solidPng(8, 8, [1, 2, 3]));
  return [
    { name: 'an empty body', raw: new Uint8Array(0), contentType: 'image/png', status: 422, code: 'validation_failed', path: 'body' },
    { name: 'JSON as the image', body: { image: 'x' }, status: 415, code: 'unsupported_media_type' },
    { name: 'a PNG declared as text/plain', raw: png, contentType: 'text/plain', status: 415, code: 'unsupported_media_type' },
    { name: 'a PNG declared as image/jpeg', raw: png, contentType: 'image/jpeg', status: 422, code: 'validation_failed', path: 'body' },
    { name: 'bytes that are no image', raw: new Uint8Array(64).fill(7), contentType: 'image/png', status: 422, code: 'validation_failed', path: 'body' },
    { name: 'a truncated PNG', raw: png.slice(0, 20), contentType: 'image/png', status: 422, code: 'validation_failed', path: 'body' },
    { name: 'a body over the size limit', raw: new Uint8Array(MAX_IMAGE_BYTES + 1), contentType: 'image/png', status: 413, code: 'payload_too_large' },
    { name: 'a filename with NUL', raw: png, contentType: 'image/png', query: 'filename=a%00.png', status: 422, code: 'validation_failed', path: 'filename' },
    { name: 'a 100,000-character filename', raw: png, contentType: 'image/png', query: `filename=${'x'.repeat(10_000)}.png`, status: 422, code: 'validation_failed', path: 'filename' },
    { name: 'an unknown query parameter', raw: png, contentType: 'image/png', query: 'filename=a.png&extra=1', status: 422, code: 'validation_failed', path: 'extra' },
  ];
}

const writeRoutes = routeTable.filter((route) => route.method !== 'GET');

function variantsOf(route: RouteDefinition): Hostile[] {
  if (route.rawBody) return imageVariants();
  if (!route.body) return noBodyVariants();
  const valid = scenarios[route.operation]?.(fixture).body;
  if (!valid || typeof valid !== 'object') throw new Error(`No valid JSON body for ${route.operation} in the fault scenarios`);
  return jsonBodyVariants(valid as Json);
}

function send(route: RouteDefinition, hostile: Hostile): Promise<ApiResponse> {
  const scenario = scenarios[route.operation]?.(fixture);
  if (!scenario) throw new Error(`No scenario for ${route.operation}: add one to test/integration/faults/fault-scenarios.ts`);
  const path = hostile.query === undefined ? scenario.path : `${scenario.path.split('?')[0]}?${hostile.query}`;
  return api.request(route.method, path, {
    ...(route.auth === 'key' ? { key: fixture.workspace.apiKey } : {}),
    ...(hostile.body === undefined ? {} : { body: hostile.body }),
    ...(hostile.raw === undefined ? {} : { raw: hostile.raw }),
    headers: hostile.contentType ? { 'content-type': hostile.contentType } : {},
  });
}

/** What is wrong with an answer to a hostile request, or undefined when it is the expected 4xx envelope. */
function mismatch(hostile: Hostile, response: ApiResponse): string | undefined {
  const error = (response.body as { error?: { code?: unknown; message?: unknown; details?: { path: string }[] } } | undefined)?.error;
  if (response.status !== hostile.status || error?.code !== hostile.code || typeof error.message !== 'string') {
    return `${hostile.name}: ${response.status} ${response.text.slice(0, 300)}`;
  }
  if (hostile.path !== undefined) {
    const paths = (error.details ?? []).map((detail) => detail.path);
    // The value itself, a value under it, or the union or object that holds it (zod reports a failed union on the union).
    const within = (outer: string, inner: string) => inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
    const named = paths.some((path) => within(hostile.path as string, path) || (path !== '' && path !== 'body' && within(path, hostile.path as string)));
    if (!named) return `${hostile.name}: details name ${JSON.stringify(paths)}, not ${hostile.path}`;
  }
  return undefined;
}

describe('hostile inputs at every write route', () => {
  it('covers every write route of the route table', () => {
    expect(writeRoutes.length).toBeGreaterThan(30);
    expect(writeRoutes.filter((route) => !scenarios[route.operation]).map((route) => route.operation)).toEqual([]);
  });

  it.each(writeRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s answers each with a 4xx envelope and changes nothing', async (_name, route) => {
    // Act
    const failures: string[] = [];
    for (const hostile of variantsOf(route)) {
      const problem = mismatch(hostile, await send(route, hostile));
      if (problem) failures.push(problem);
    }
    // Assess
    expect(failures).toEqual([]);
    expect(tables.diff(baseline, await tables.take())).toEqual([]);
  }, 120_000);
});
