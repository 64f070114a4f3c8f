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

/**
 * zod issues as the error envelope's `details` (`[{path, message}]`), with `prefix` before every
 * path. Used at the edge and by domain code that validates a merged object again (an element patch).
 */
export function issuesToDetails(error: z.ZodError, prefix = ''): ErrorDetail[] {
  // An unknown field is reported on the object that holds it; name each field instead.
  const issues = error.issues.flatMap((issue) => (issue.code === 'unrecognized_keys'
    ? issue.keys.map((key) => ({ path: [...issue.path, key], message: `unknown field "${key}"` }))
    : [{ path: issue.path, message: issue.message }]));
  return issues.map((issue) => {
    const path = formatIssuePath(issue.path);
    return { path: prefix && path ? `${prefix}.${path}` : prefix || path, message: issue.message };
  });
}
