/** Median and spread of repeated measurements: every goal is read from the median, never one run. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  /** Number of repetitions. */
  n: number;
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return (sorted[lower] as number) + ((sorted[upper] as number) - (sorted[lower] as number)) * (position - lower);
}

export function spreadOf(values: readonly number[]): Spread {
  return { median: quantile(values, 0.5), min: Math.min(...values), max: Math.max(...values), n: values.length };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** `1.23 (1.10-1.41)`: median and the range over the repetitions. */
export function formatSpread(spread: Spread, digits = 2): string {
  return `${round(spread.median, digits)} (${round(spread.min, digits)}-${round(spread.max, digits)})`;
}
