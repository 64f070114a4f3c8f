import type { ErrorDetail } from '../errors.js';
import { formatIssuePath } from '../model/issues.js';

/**
 * Input hygiene, once, at the edge (API.md "Round trips and references"): every JSON body and every
 * query string is checked here before any route schema sees it, so no route can forget it. Text holding
 * NUL or a lone surrogate, an own `__proto__` or `constructor` key, a number DynamoDB cannot store and
 * nesting deeper than any model needs are refused with the path of the offending value.
 */

/**
 * Object keys no body may hold, at any depth. `__proto__`: zod's records drop it without a word. `constructor`:
 * the DynamoDB marshaller tells a plain object by its `constructor`, so an object whose own `constructor` is
 * data (`{"metaData": {"constructor": "x"}}`, in a free-form field) could not be stored (a 500), or was read
 * as a Set, a Map or bytes. No model has a field by either name.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor']);

/** Deepest nesting a JSON body may have; the deepest model (a form's logic conditions) needs 6. */
export const MAX_JSON_DEPTH = 32;
/**
 * Largest magnitude a number may have. DynamoDB itself stores up to 1E125, but the DocumentClient
 * refuses to marshal a JS number beyond Number.MAX_SAFE_INTEGER (it cannot be exact), which made such a
 * value a 500 wherever it was stored (a contact's Number property, a form answer, an element's
 * `minValue`). The spec bounds integers by +/-9007199254740991, and every double above that is an
 * integer, so one bound here covers every body and every field.
 */
const MAX_NUMBER_MAGNITUDE = Number.MAX_SAFE_INTEGER;
/** Smallest non-zero magnitude DynamoDB stores (it refuses anything below 1E-130). */
const MIN_NUMBER_MAGNITUDE = 1e-130;
/** At most this many problems are reported: a hostile body could hold millions. */
const MAX_PROBLEMS = 20;

/** A lone surrogate: with the `u` flag, a well-formed pair is one code point and never matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why `text` is refused, or undefined when it is clean. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode: it contains a lone surrogate (an unpaired \\uD800-\\uDFFF code unit)';
  return undefined;
}

/** A key as it may be echoed in an error path: the refused characters written as escapes, never raw. */
function printable(key: string): string {
  // eslint-disable-next-line no-control-regex
  return key.replace(/\u0000/g, '\\u0000').replace(/\p{Cs}/gu, (unit) => `\\u${unit.charCodeAt(0).toString(16).toUpperCase()}`);
}

function numberProblem(value: number): string | undefined {
  const magnitude = Math.abs(value);
  if (!Number.isFinite(value) || magnitude > MAX_NUMBER_MAGNITUDE) return `must be a finite number of magnitude at most ${MAX_NUMBER_MAGNITUDE}`;
  if (magnitude !== 0 && magnitude < MIN_NUMBER_MAGNITUDE) return `must be 0 or of magnitude at least ${MIN_NUMBER_MAGNITUDE}`;
  return undefined;
}

/**
 * The problems of a parsed JSON value, as `validation_failed` details: walked with an explicit stack
 * (a deep body cannot overflow the call stack), object keys checked like strings.
 */
export function jsonInputProblems(root: unknown): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const { value, path } = stack.pop() as { value: unknown; path: (string | number)[] };
    const report = (at: (string | number)[], message: string) => problems.push({ path: formatIssuePath(at) || 'body', message });
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) report(path, problem);
    } else if (typeof value === 'number') {
      const problem = numberProblem(value);
      if (problem) report(path, problem);
    } else if (typeof value === 'object' && value !== null) {
      if (path.length >= MAX_JSON_DEPTH) {
        report(path, `is nested too deeply: a body may nest objects and arrays ${MAX_JSON_DEPTH} levels deep at most`);
        continue;
      }
      if (Array.isArray(value)) {
        for (let index = value.length - 1; index >= 0; index -= 1) stack.push({ value: value[index], path: [...path, index] });
        continue;
      }
      const keys = Object.keys(value);
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        const key = keys[index] as string;
        const keyProblem = RESERVED_KEYS.has(key) ? `the key "${key}" is not allowed` : textProblem(key);
        if (keyProblem) report([...path, printable(key)], keyProblem.startsWith('must') ? `field name ${keyProblem}` : keyProblem);
        else stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
      }
    }
  }
  return problems;
}

/**
 * The problems of query string parameters (names and values), as details on the parameter names. A
 * parameter given more than once (`multi`, API Gateway's multi-value parameters) is refused rather
 * than read as its last value: no list takes several values of one parameter, and `?status=open&status=paid`
 * silently meaning `paid` would hide the client's mistake.
 */
export function queryInputProblems(query: Record<string, string | undefined> | null | undefined, multi?: Record<string, readonly string[] | undefined> | null): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    const count = multi?.[name]?.length ?? 1;
    const problem = textProblem(name) ?? (value === undefined ? undefined : textProblem(value))
      ?? (name === '__proto__' ? 'is not accepted as a parameter name' : undefined)
      ?? (count > 1 ? `is given ${count} times; give it once` : undefined);
    if (problem) problems.push({ path: printable(name), message: problem });
  }
  return problems;
}
