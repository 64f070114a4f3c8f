import { ConflictError } from '../errors.js';

/** 409 `conflict` when the caller's version is not the current one. */
export function assertVersion(expected: number | undefined, current: number): void {
  if (expected !== undefined && expected !== current) {
    throw new ConflictError(`The invoice is at version ${current}, not ${expected}. Read it again and retry.`);
  }
}
