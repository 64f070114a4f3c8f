import type { Currency } from '../model/primitives.js';

/**
 * The fee schedule applied to every succeeded payment. Rates are basis points (1 bp = 0.01 %) and
 * fixed parts are minor units, so fees are computed in integer arithmetic only (BigInt, rounded half
 * up to the cent): no float ever touches an amount.
 */
export interface FeeSchedule {
  /** The platform's own fee, in basis points of the gross amount. */
  readonly platformBasisPoints: number;
  /** The payment processor's percentage fee, in basis points of the gross amount. */
  readonly processorBasisPoints: number;
  /** The processor's fixed fee per charge, in minor units of the currency. */
  readonly processorFixed: Readonly<Record<Currency, number>>;
}

/**
 * Default schedule: platform 1.00 %; processor 2.90 % + 30 cents (USD and CAD). Manually recorded
 * payments pay the platform fee only: no processor touched them.
 */
export const DEFAULT_FEE_SCHEDULE: FeeSchedule = {
  platformBasisPoints: 100,
  processorBasisPoints: 290,
  processorFixed: { USD: 30, CAD: 30 },
};

export interface Fees {
  platformFee: number;
  processorFee: number;
  /** platformFee + processorFee, never above the gross amount. */
  fees: number;
  /** gross - fees, never negative. */
  net: number;
}

/** `amount * basisPoints / 10000`, rounded half up, exactly. */
export function basisPointsOf(amount: number, basisPoints: number): number {
  const product = BigInt(amount) * BigInt(basisPoints);
  return Number((product + 5_000n) / 10_000n);
}

/**
 * Fees of one payment. Fees never exceed the gross amount (a tiny payment is not charged more than it
 * brings): the processor fee is capped first, then the platform fee takes what is left.
 */
export function feesFor(gross: number, currency: Currency, method: 'card' | 'manual', schedule: FeeSchedule = DEFAULT_FEE_SCHEDULE): Fees {
  const processorRaw = method === 'card' ? basisPointsOf(gross, schedule.processorBasisPoints) + schedule.processorFixed[currency] : 0;
  const processorFee = Math.min(processorRaw, gross);
  const platformFee = Math.min(basisPointsOf(gross, schedule.platformBasisPoints), gross - processorFee);
  const fees = platformFee + processorFee;
  return { platformFee, processorFee, fees, net: gross - fees };
}
