/** Settlement buckets per delay: pending money lives in at most this many (+1) items per scope. */
const BUCKETS_PER_DELAY = 48;
const MAX_BUCKET_SECONDS = 3_600;

/**
 * Width of a settlement bucket: the delay split into 48 (an hour for the sandbox's 2 days), at
 * least a second. Pending money therefore spans at most ~49 bucket items, whatever the volume.
 */
export function bucketSeconds(delaySeconds: number): number {
  return Math.max(1, Math.min(MAX_BUCKET_SECONDS, Math.floor(delaySeconds / BUCKETS_PER_DELAY)));
}

/**
 * When money received at `createdAt` becomes available: after the delay, rounded up to the next
 * bucket boundary so that entries share buckets. A zero delay settles at once.
 */
export function availableAtFor(createdAt: Date, delaySeconds: number): Date {
  if (delaySeconds === 0) return createdAt;
  const widthMs = bucketSeconds(delaySeconds) * 1000;
  const due = createdAt.getTime() + delaySeconds * 1000;
  return new Date(Math.ceil(due / widthMs) * widthMs);
}

/**
 * When a refund leaves the balance: at once if the refunded payment has settled, else together with
 * the payment (same bucket), so a refund never makes `available` pay for money still pending.
 */
export function refundAvailableAt(paymentAvailableAt: string, now: Date): Date {
  const settles = Date.parse(paymentAvailableAt);
  return settles > now.getTime() ? new Date(settles) : now;
}
