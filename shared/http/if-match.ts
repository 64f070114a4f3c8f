import { ValidationError } from '../errors.js';

const VERSION_TAG = /^(?:W\/)?"?(\d{1,15})"?$/;

/**
 * Reads the `If-Match` request header as a resource `version` (API.md "Optimistic concurrency").
 * Accepts `3`, `"3"` and `W/"3"`; absent is `undefined` (the server then retries on conflict), and so
 * is `*`, which matches any current version (RFC 9110): the update of a missing resource is a 404 anyway.
 * Anything else is a 422 so that a typo never silently disables the check.
 */
export function parseIfMatch(headers: Record<string, string | undefined>): number | undefined {
  const value = headers['if-match']?.trim();
  if (value === undefined || value === '*') return undefined;
  const match = VERSION_TAG.exec(value);
  if (!match) throw new ValidationError({ path: 'If-Match', message: 'If-Match must be the integer version of the resource, e.g. If-Match: 3.' });
  return Number(match[1]);
}
