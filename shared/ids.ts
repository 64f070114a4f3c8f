import { randomBytes } from 'node:crypto';

/** Every id the service mints: 24 lowercase hex characters, time-ordered like a MongoDB ObjectId. */
export const ID_PATTERN = /^[a-f0-9]{24}$/;

/**
 * Mints a new id: 8 hex characters of seconds since the epoch, then 16 random hex characters.
 * Sorting ids lexicographically therefore sorts them by creation second.
 */
export function newId(now: Date = new Date()): string {
  const seconds = Math.floor(now.getTime() / 1000).toString(16).padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}
