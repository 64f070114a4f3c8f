/**
 * When a failed delivery is tried again: exponential backoff with jitter, 8 attempts in all.
 * Deployed: 30 s, 2 min, 8 min, 32 min, ~2 h, ~8.5 h, 10 h after each failure (about 21 h from the
 * first attempt to the last), each +-20 % so that retries of a burst do not arrive together. Locally
 * (`npm start`) the same shape in seconds: 1 s, 2 s, 4 s, ... 64 s.
 */
export const MAX_ATTEMPTS = 8;

export interface RetrySchedule {
  /** Delay after the first failure. */
  baseMs: number;
  /** Each further failure multiplies the delay by this. */
  factor: number;
  /** No delay is longer than this (SQS visibility timeouts stop at 12 h). */
  capMs: number;
  /** Relative jitter: the delay is drawn uniformly from nominal * [1 - jitter, 1 + jitter]. */
  jitter: number;
}

export const DEPLOYED_SCHEDULE: RetrySchedule = { baseMs: 30_000, factor: 4, capMs: 10 * 60 * 60 * 1000, jitter: 0.2 };
export const LOCAL_SCHEDULE: RetrySchedule = { baseMs: 1_000, factor: 2, capMs: 64_000, jitter: 0.2 };

/** The longest SQS visibility timeout: a delay never exceeds it, jitter included. */
const MAX_DELAY_MS = 12 * 60 * 60 * 1000;

/** The delay before the next attempt, after `failedAttempts` (1..7) failures. */
export function retryDelayMs(failedAttempts: number, schedule: RetrySchedule, random: () => number = Math.random): number {
  const nominal = Math.min(schedule.capMs, schedule.baseMs * schedule.factor ** (failedAttempts - 1));
  const jittered = nominal * (1 - schedule.jitter + 2 * schedule.jitter * random());
  return Math.min(MAX_DELAY_MS, Math.round(jittered));
}
