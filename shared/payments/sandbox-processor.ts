import { createHash } from 'node:crypto';
import type { ChargeRequest, ChargeResult, PaymentProcessor, RefundRequest, RefundResult } from './payment-processor.js';

/** Sandbox settlement delay: 2 days, overridable with `SETTLEMENT_DELAY_SECONDS`. */
export const SANDBOX_SETTLEMENT_DELAY_SECONDS = 2 * 24 * 60 * 60;

/** Stripe-style test tokens (API.md "CRM properties and contacts") and what they do. */
const DECLINES: Record<string, { failureCode: string; failureMessage: string }> = {
  pm_card_chargeDeclined: { failureCode: 'card_declined', failureMessage: 'Your card was declined.' },
  pm_card_authenticationRequired: {
    failureCode: 'authentication_required',
    failureMessage: 'The card requires authentication, which an off-session charge cannot perform.',
  },
};
const NO_CARD = { failureCode: 'no_payment_method', failureMessage: 'The customer has no saved payment method.' };
const UNKNOWN_CARD = { failureCode: 'invalid_payment_method', failureMessage: 'The saved payment method is not a known sandbox token.' };
const SUCCEEDING = new Set(['pm_card_visa', 'pm_card_mastercard', 'pm_card_amex']);

/** Deterministic processor ids: the same idempotency key always yields the same intent. */
function sandboxId(prefix: string, key: string): string {
  return `${prefix}_sandbox${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}

function delayFromEnvironment(): number {
  const raw = process.env.SETTLEMENT_DELAY_SECONDS;
  if (raw === undefined || raw === '') return SANDBOX_SETTLEMENT_DELAY_SECONDS;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 0) throw new Error('SETTLEMENT_DELAY_SECONDS must be a non-negative integer');
  return seconds;
}

/** The built-in processor: no network, deterministic outcomes driven by the card token. */
export const sandboxProcessor: PaymentProcessor = {
  name: 'sandbox',
  settlementDelaySeconds: delayFromEnvironment,
  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const intentId = sandboxId('pi', request.idempotencyKey);
    const token = request.paymentMethod;
    const failure = token === undefined || token === '' ? NO_CARD : DECLINES[token] ?? (SUCCEEDING.has(token) ? undefined : UNKNOWN_CARD);
    if (failure) return { status: 'failed', intentId, ...failure };
    return { status: 'succeeded', intentId, chargeId: sandboxId('ch', request.idempotencyKey) };
  },
  async refund(request: RefundRequest): Promise<RefundResult> {
    return { refundId: sandboxId('re', request.idempotencyKey) };
  },
};
