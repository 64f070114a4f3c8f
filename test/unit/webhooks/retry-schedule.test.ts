import { describe, expect, it } from 'vitest';
import { DEPLOYED_SCHEDULE, LOCAL_SCHEDULE, MAX_ATTEMPTS, retryDelayMs } from '../../../shared/webhooks/retry-schedule.js';

const nominal = (schedule = DEPLOYED_SCHEDULE) => Array.from({ length: MAX_ATTEMPTS - 1 }, (_unused, index) => retryDelayMs(index + 1, schedule, () => 0.5));

describe('retry schedule', () => {
  it('makes 8 attempts over about a day deployed, each wait longer than the one before (exponential, capped at 10 h)', () => {
    // Act
    const delays = nominal();
    const total = delays.reduce((sum, delay) => sum + delay, 0);
    // Assess
    expect(MAX_ATTEMPTS).toBe(8);
    expect(delays).toEqual([30_000, 120_000, 480_000, 1_920_000, 7_680_000, 30_720_000, 36_000_000]);
    expect(total / 3_600_000).toBeGreaterThan(18);
    expect(total / 3_600_000).toBeLessThan(28);
  });

  it('jitters each delay within +-20 % and never past SQS\'s 12 h visibility limit', () => {
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt += 1) {
      const middle = retryDelayMs(attempt, DEPLOYED_SCHEDULE, () => 0.5);
      expect(retryDelayMs(attempt, DEPLOYED_SCHEDULE, () => 0)).toBe(Math.round(middle * 0.8));
      expect(retryDelayMs(attempt, DEPLOYED_SCHEDULE, () => 0.999999)).toBeLessThanOrEqual(Math.min(middle * 1.2, 12 * 3_600_000));
    }
  });

  it('is compressed locally: the first retry within 5 s, all within about two minutes', () => {
    const delays = nominal(LOCAL_SCHEDULE);
    expect(retryDelayMs(1, LOCAL_SCHEDULE, () => 0.999999)).toBeLessThan(5_000);
    expect(delays.reduce((sum, delay) => sum + delay, 0)).toBeLessThan(150_000);
  });
});
