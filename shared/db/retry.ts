/**
 * Retry helpers for optimistic concurrency: a lost conditional write or a cancelled transaction means
 * "somebody else won, read again". Jittered exponential backoff spreads the contenders; every round at
 * least one of them wins, so the attempts needed are bounded by the number of contenders.
 */

/** Waits a random time up to min(200 ms, 5 ms * 2^attempt). */
export function jitteredBackoff(attempt: number): Promise<void> {
  const ceiling = Math.min(200, 5 * 2 ** Math.min(attempt, 6));
  return new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * ceiling)));
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
