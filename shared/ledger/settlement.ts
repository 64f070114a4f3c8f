/**
 * Settlement: money becomes available after the processor's delay, counted from `paidAt` (API.md).
 *
 * Pending money is kept per scope in hour buckets (at most ~49 items for the sandbox's 2 days, whatever
 * the volume), each split into steps of a minute (shorter for delays under ~48 minutes): a bucket whose
 * hour has begun is read step by step, so money is available within a step of its due time, not at the
 * end of its hour.
 */

/** Settlement steps per delay, for short delays (tests, sandboxes): a step is at most a minute. */
const STEPS_PER_DELAY = 48;
const MAX_STEP_SECONDS = 60;
/** The width of a pending bucket: one hour. */
export const BUCKET_MS = 3_600_000;

/** Width of a settlement step: the delay split into 48, at most a minute, at least a second. */
export function stepSeconds(delaySeconds: number): number {
  return Math.max(1, Math.min(MAX_STEP_SECONDS, Math.floor(delaySeconds / STEPS_PER_DELAY)));
}

/**
 * When money received at `createdAt` becomes available: after the delay, rounded up to the next step
 * boundary (at most a minute later) so that entries share steps. A zero delay settles at once.
 */
export function availableAtFor(createdAt: Date, delaySeconds: number): Date {
  if (delaySeconds === 0) return createdAt;
  const widthMs = stepSeconds(delaySeconds) * 1000;
  const due = createdAt.getTime() + delaySeconds * 1000;
  return new Date(Math.ceil(due / widthMs) * widthMs);
}

/** The end of the hour bucket that money available at `availableAt` is pending in. */
export function bucketEndOf(availableAt: string): string {
  return new Date(Math.ceil(Date.parse(availableAt) / BUCKET_MS) * BUCKET_MS).toISOString();
}

/** The start of the hour bucket that ends at `bucketEnd`. */
export function bucketStartOf(bucketEnd: string): string {
  return new Date(Date.parse(bucketEnd) - BUCKET_MS).toISOString();
}

/**
 * When a refund leaves the balance: at once if the refunded payment has settled, else together with
 * the payment (same bucket and step), so a refund never makes `available` pay for money still pending.
 */
export function refundAvailableAt(paymentAvailableAt: string, now: Date): Date {
  const settles = Date.parse(paymentAvailableAt);
  return settles > now.getTime() ? new Date(settles) : now;
}
