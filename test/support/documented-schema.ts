/**
 * Checks real answers against the OpenAPI document: which response an operation documents for a status,
 * and whether a JSON body fits a schema. The schema check knows the keywords the document's response
 * schemas use for their structure (`$ref`, `allOf`, `oneOf`, `anyOf`, `type`, `properties`, `required`,
 * `additionalProperties: false`, `enum`, `const`, `items`, `minItems`, `maxItems`) and skips the others
 * (formats, patterns, bounds): enough to catch a field, a code or a body shape the document forbids.
 */

type Json = Record<string, unknown>;

function resolve(document: Json, value: Json): Json {
  const ref = value.$ref;
  if (typeof ref !== 'string') return value;
  return resolve(document, ref.replace(/^#\//, '').split('/').reduce<unknown>((node, segment) => (node as Json)[segment.replace(/~1/g, '/').replace(/~0/g, '~')], document) as Json);
}

/** The response `method path` documents for `status` (its own key, else its range such as `5XX`), resolved. */
export function documentedResponse(document: Json, path: string, method: string, status: number): Json | undefined {
  const responses = ((document.paths as Record<string, Record<string, { responses: Record<string, Json> }>>)[path]?.[method.toLowerCase()])?.responses ?? {};
  const response = responses[String(status)] ?? responses[`${String(status).charAt(0)}XX`];
  return response ? resolve(document, response) : undefined;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * Whether `value` fits `schema`, remembered per object value and schema node: a union's branches are each
 * tried on the value, and without the memo nested unions (rich text in rich text) would try them again at
 * every level, exponentially in the depth.
 */
const fitted = new WeakMap<object, Map<Json, boolean>>();
function fits(document: Json, schema: Json, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return violations(document, schema, value).length === 0;
  const known = fitted.get(value) ?? new Map<Json, boolean>();
  fitted.set(value, known);
  const node = resolve(document, schema);
  const cached = known.get(node);
  if (cached !== undefined) return cached;
  const result = violations(document, node, value).length === 0;
  known.set(node, result);
  return result;
}

/** Why `value` does not fit `schema` (empty when it fits). */
export function violations(document: Json, schema: Json, value: unknown, at = '$'): string[] {
  const node = resolve(document, schema);
  const problems: string[] = [];
  for (const part of (node.allOf as Json[] | undefined) ?? []) problems.push(...violations(document, part, value, at));
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = node[keyword] as Json[] | undefined;
    if (!branches) continue;
    const fitting = branches.filter((branch) => fits(document, branch, value)).length;
    if (keyword === 'oneOf' ? fitting !== 1 : fitting === 0) problems.push(`${at}: fits ${fitting} of the ${branches.length} ${keyword} branches`);
  }
  if (node.type !== undefined) {
    const types = ([] as unknown[]).concat(node.type);
    const actual = typeOf(value);
    if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) problems.push(`${at}: ${actual} is not ${types.join(' or ')}`);
  }
  if ('const' in node && JSON.stringify(node.const) !== JSON.stringify(value)) problems.push(`${at}: ${JSON.stringify(value)} is not ${JSON.stringify(node.const)}`);
  if (Array.isArray(node.enum) && !node.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) problems.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(node.enum)}`);
  if (Array.isArray(value)) {
    if (typeof node.maxItems === 'number' && value.length > node.maxItems) problems.push(`${at}: more than ${node.maxItems} items`);
    if (typeof node.minItems === 'number' && value.length < node.minItems) problems.push(`${at}: fewer than ${node.minItems} items`);
    if (node.items) value.forEach((item, index) => problems.push(...violations(document, node.items as Json, item, `${at}[${index}]`)));
  }
  if (typeOf(value) === 'object') {
    const object = value as Json;
    const properties = (node.properties as Record<string, Json> | undefined) ?? {};
    for (const name of (node.required as string[] | undefined) ?? []) if (!(name in object)) problems.push(`${at}.${name}: required`);
    for (const [name, child] of Object.entries(object)) {
      if (properties[name]) problems.push(...violations(document, properties[name], child, `${at}.${name}`));
      else if (node.additionalProperties === false) problems.push(`${at}.${name}: not allowed`);
    }
  }
  return problems;
}

/** Why a JSON answer of `method path` with `status` does not fit what the document says of it (empty when it fits). */
export function answerViolations(document: Json, path: string, method: string, status: number, body: unknown): string[] {
  const response = documentedResponse(document, path, method, status);
  if (!response) return [`${method} ${path}: ${status} is not documented`];
  const schema = (response.content as Record<string, { schema?: Json }> | undefined)?.['application/json']?.schema;
  if (!schema) return [`${method} ${path}: ${status} documents no JSON body`];
  return violations(document, schema, body);
}

/**
 * The document's path template that `urlPath` (query and trailing slash ignored) is an instance of: of
 * several, the one with the most literal segments (`/v1/events/balance`, not `/v1/events/{id}`), as a router matches.
 */
export function documentedPath(document: Json, urlPath: string): string | undefined {
  const segments = urlPath.split('?')[0]!.replace(/(.)\/$/, '$1').split('/');
  const literals = (template: string) => template.split('/').filter((part) => !/^\{.+\}$/.test(part)).length;
  return Object.keys(document.paths as Json)
    .filter((template) => {
      const parts = template.split('/');
      return parts.length === segments.length && parts.every((part, index) => /^\{.+\}$/.test(part) ? segments[index] !== '' : part === segments[index]);
    })
    .sort((a, b) => literals(b) - literals(a))[0];
}

/**
 * Statuses the document leaves to its conventions text rather than to each operation: 405 on a known
 * path with another method, and the local server's own transport refusals (408, 431).
 */
const CONVENTION_STATUSES = new Set([405, 408, 431]);

/**
 * Why a real answer does not conform to the document (empty when it does, or when the document does not
 * describe the request: an unknown path, a CORS preflight). Checks the status is documented for the
 * operation, the content type is one it documents (or no body where it documents none), and a JSON body fits.
 */
export function conformanceViolations(document: Json, method: string, urlPath: string, answer: { status: number; contentType: string | null; text: string; body: unknown }): string[] {
  const template = documentedPath(document, urlPath);
  const operations = template ? (document.paths as Record<string, Json>)[template] : undefined;
  if (!template || !operations?.[method.toLowerCase()] || CONVENTION_STATUSES.has(answer.status)) return [];
  const response = documentedResponse(document, template, method, answer.status);
  if (!response) return [`${method} ${template}: ${answer.status} is not documented`];
  const content = response.content as Record<string, { schema?: Json }> | undefined;
  if (!content) return answer.text === '' ? [] : [`${method} ${template}: ${answer.status} documents no body, got ${answer.contentType ?? 'no content type'}`];
  const type = (answer.contentType ?? '').split(';')[0]!.trim();
  const documented = Object.keys(content).filter((key) => key.split(';')[0]!.trim() === type);
  if (documented.length === 0) return [`${method} ${template}: ${answer.status} documents ${Object.keys(content).join(', ')}, got ${answer.contentType ?? 'no content type'}`];
  const schema = content['application/json']?.schema;
  return type === 'application/json' && schema ? violations(document, schema, answer.body).map((problem) => `${method} ${template} ${answer.status}: ${problem}`) : [];
}
