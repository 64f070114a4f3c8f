import { randomFillSync } from 'node:crypto';

/** Every id the service mints: 24 lowercase hex characters, the creation second then 64 random bits. */
export const ID_PATTERN = /^[a-f0-9]{24}$/;

/** Random bytes drawn from the CSPRNG in blocks (one system call per 512 ids), handed out 8 at a time. */
const POOL = Buffer.alloc(8 * 512);
let poolOffset = POOL.length;

function randomTail(): string {
  if (poolOffset === POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const tail = POOL.toString('hex', poolOffset, poolOffset + 8);
  poolOffset += 8;
  return tail;
}

/**
 * Mints a new id (API.md "Ids"): 8 hex characters of seconds since the epoch, then 16 hex characters
 * (64 bits) from the CSPRNG. No counter and nothing per process: an id says nothing about the next
 * one, so ids of forms, responses or payouts cannot be guessed from one another. Ids sort by creation
 * second only; lists that promise creation order sort on `<createdAt>#<id>` (the table design's
 * `creationOrderKey`), never on the id alone.
 */
export function newId(now: Date = new Date()): string {
  const seconds = Math.floor(now.getTime() / 1000).toString(16).padStart(8, '0');
  return seconds + randomTail();
}

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}
