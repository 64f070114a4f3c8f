import type * as z from 'zod';
import type { ErrorDetail } from '../errors.js';

/** `['elements', 3, 'options']` -> `elements[3].options`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

type Issue = z.ZodError['issues'][number];

/**
 * A failed union says only "Invalid input" on the union's path. When the input was plainly meant for
 * one branch, that branch's issues say more: they name the wrong field and its allowed values
 * (`condition.operator`: expected one of ...). The branch meant is the only one with no issue on the
 * value itself (an unknown key, or another kind of value), i.e. the one whose keys the input fits;
 * with none or several such branches the union's own issue (and its custom message) stays.
 */
function unwrapUnion(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union') return [issue];
  const meant = issue.errors.filter((branch) => branch.every((inner) => inner.path.length > 0));
  const [branch] = meant;
  if (meant.length !== 1 || branch === undefined) return [issue];
  return branch.flatMap((inner) => unwrapUnion({ ...inner, path: [...issue.path, ...inner.path] } as Issue));
}

/**
 * zod issues as the error envelope's `details` (`[{path, message}]`), with `prefix` before every
 * path. Used at the edge and by domain code that validates a merged object again (an element patch).
 */
export function issuesToDetails(error: z.ZodError, prefix = ''): ErrorDetail[] {
  // An unknown field is reported on the object that holds it; name each field instead.
  const issues = error.issues.flatMap(unwrapUnion).flatMap((issue) => (issue.code === 'unrecognized_keys'
    ? issue.keys.map((key) => ({ path: [...issue.path, key], message: `unknown field "${key}"` }))
    : [{ path: issue.path, message: issue.message }]));
  return issues.map((issue) => {
    const path = formatIssuePath(issue.path);
    return { path: prefix && path ? `${prefix}.${path}` : prefix || path, message: issue.message };
  });
}
