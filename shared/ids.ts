import { randomBytes } from 'node:crypto';

/** Every id the service mints: 24 lowercase hex characters, time-ordered like a MongoDB ObjectId. */
export const ID_PATTERN = /^[a-f0-9]{24}$/;

/** Like a MongoDB ObjectId: 5 random bytes per process, then a counter, so ids of one process strictly increase. */
const PROCESS_PART = randomBytes(5).toString('hex');
// Start in the lower half so the 24-bit counter does not wrap within one second.
let counter = randomBytes(3).readUIntBE(0, 3) & 0x7fffff;

/**
 * Mints a new id: 8 hex characters of seconds since the epoch, 10 hex characters per process, then a
 * 6-hex counter. Sorting ids lexicographically therefore sorts them by creation second, and within
 * one process by creation order (lists by creation time stay in order for ids minted in one second).
 */
export function newId(now: Date = new Date()): string {
  const seconds = Math.floor(now.getTime() / 1000).toString(16).padStart(8, '0');
  counter = (counter + 1) & 0xffffff;
  return seconds + PROCESS_PART + counter.toString(16).padStart(6, '0');
}

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}
