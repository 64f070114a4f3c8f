import type { Currency } from '../model/primitives.js';

/**
 * The payment-processor port. The invoices service only talks to this interface; the built-in
 * sandbox implements it locally and by default. A real adapter (for example Stripe's PaymentIntents
 * with `off_session: true, confirm: true`) implements the same three members and is selected in
 * `processor-registry.ts`; nothing else changes.
 */
export interface ChargeRequest {
  amount: number;
  currency: Currency;
  /** Saved card token of the customer (`defaultPaymentMethod` of the contact); absent = no card. */
  paymentMethod: string | undefined;
  customerId: string;
  /**
   * Forwarded to the processor as its idempotency key: a retried attempt for the same invoice
   * version reuses the same intent instead of charging twice.
   */
  idempotencyKey: string;
  description?: string;
}

export type ChargeResult =
  | { status: 'succeeded'; intentId: string; chargeId: string }
  | { status: 'failed'; intentId: string; failureCode: string; failureMessage: string };

export interface RefundRequest {
  chargeId: string;
  amount: number;
  currency: Currency;
  idempotencyKey: string;
  reason?: string;
}

export interface RefundResult {
  refundId: string;
}

/**
 * The processor refused a refund for good (e.g. the charge is disputed or too old): nothing was
 * refunded, and asking again will not change that. Any other error from `refund` is transient.
 */
export class RefundDeclinedError extends Error {
  constructor(readonly reason: string) {
    super(`The processor declined the refund: ${reason}`);
    this.name = 'RefundDeclinedError';
  }
}

export interface PaymentProcessor {
  readonly name: string;
  /** Seconds between a charge and the moment its money becomes available for payout. */
  settlementDelaySeconds(): number;
  /** Off-session charge of a saved card. Declines are results, not exceptions. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Idempotent by `idempotencyKey`. Throws RefundDeclinedError when the refund can never happen. */
  refund(request: RefundRequest): Promise<RefundResult>;
}
