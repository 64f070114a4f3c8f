import { DYNAMO_LIMITS, ensureTimeLeft } from './time-budget.js';

/**
 * Retry helpers for optimistic concurrency: a lost conditional write or a cancelled transaction means
 * "somebody else won, read again". Jittered exponential backoff spreads the contenders; every round at
 * least one of them wins, so the attempts needed are bounded by the number of contenders.
 */

/**
 * Waits `ms`, unless the invocation's time budget cannot fit the wait and one more DynamoDB attempt:
 * then it throws TimeBudgetExhaustedError (503) at once instead of letting the function time out.
 */
export function pause(ms: number): Promise<void> {
  ensureTimeLeft(ms + DYNAMO_LIMITS.requestTimeoutMs);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits a random time up to min(200 ms, 5 ms * 2^attempt), within the time budget. */
export function jitteredBackoff(attempt: number): Promise<void> {
  const ceiling = Math.min(200, 5 * 2 ** Math.min(attempt, 6));
  return pause(Math.floor(Math.random() * ceiling));
}

/** Runs `attempt` until it succeeds, retrying (with backoff) only the failures `shouldRetry` accepts. */
export async function retrying<T>(attempt: () => Promise<T>, shouldRetry: (error: unknown) => boolean, maxAttempts = 60): Promise<T> {
  for (let round = 1; ; round += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (round >= maxAttempts || !shouldRetry(error)) throw error;
      await jitteredBackoff(round);
    }
  }
}
