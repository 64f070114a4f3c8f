import { ConflictError, StaleVersionError, WriteContentionError } from '../errors.js';
import { jitteredBackoff } from './retry.js';

/** Attempts before a write that keeps losing races answers 503 (contention is not the client's fault). */
const MAX_ATTEMPTS = 12;

export interface ReadModifyWrite<T extends { version: number }, R> {
  /** What the resource is called in messages: `form`, `invoice`, ... */
  resource: string;
  /** The `If-Match` version the client sent, if any. */
  ifMatch?: number | undefined;
  /** Reads the current state (strongly consistent: the decision is taken on it); throws NotFound itself. */
  read: () => Promise<T>;
  /**
   * Decides and writes, conditioned on `current.version` (e.g. with `versionIs`). Throws
   * StaleVersionError when the version moved, WriteContentionError when a transaction lost a race.
   */
  write: (current: T) => Promise<R>;
  /** Extra failures that mean "read again and redo the decision" (e.g. a counter taken concurrently). */
  retryOn?: (error: unknown) => boolean;
}

/**
 * The one optimistic-concurrency loop. With `If-Match` a version other than the current one is a 409
 * `conflict` (and so is losing the race to another writer); without it, a lost race re-reads and
 * re-applies the change, so concurrent changes are all kept. A race lost on every attempt is a 503
 * WriteContentionError: nothing was written and the client may retry.
 */
export async function readModifyWrite<T extends { version: number }, R>(spec: ReadModifyWrite<T, R>): Promise<R> {
  const stale = (version?: number) => new ConflictError(version === undefined
    ? `The ${spec.resource} changed after version ${spec.ifMatch} was read (If-Match). Re-read it and retry.`
    : `The ${spec.resource} is at version ${version}, not ${spec.ifMatch} (If-Match). Re-read it and retry.`);
  for (let attempt = 1; ; attempt += 1) {
    const current = await spec.read();
    if (spec.ifMatch !== undefined && current.version !== spec.ifMatch) throw stale(current.version);
    try {
      return await spec.write(current);
    } catch (error) {
      const lostRace = error instanceof StaleVersionError || error instanceof WriteContentionError || (spec.retryOn?.(error) ?? false);
      if (!lostRace) throw error;
      // With If-Match, a moved version is the client's 409; contention alone is retried (the re-read tells).
      if (spec.ifMatch !== undefined && error instanceof StaleVersionError) throw stale();
      if (attempt >= MAX_ATTEMPTS) throw new WriteContentionError(`The ${spec.resource} is being changed by many requests at once. Retry shortly.`);
      await jitteredBackoff(attempt);
    }
  }
}
