import { ConflictError } from '../errors.js';

/**
 * Reads `If-Match: <version>` (quotes and a weak `W/` prefix tolerated). A value that is not a
 * version can never match the current one, so it is a 409 like a stale version.
 */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const raw = header.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
  if (!/^\d{1,15}$/.test(raw)) throw new ConflictError('If-Match must be the invoice version you read (an integer).');
  return Number(raw);
}

/** 409 `conflict` when the caller's version is not the current one. */
export function assertVersion(expected: number | undefined, current: number): void {
  if (expected !== undefined && expected !== current) {
    throw new ConflictError(`The invoice is at version ${current}, not ${expected}. Read it again and retry.`);
  }
}
