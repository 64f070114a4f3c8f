import { InvalidStateError, ValidationError } from '../errors.js';
import type { InvoiceStatus } from './invoice-model.js';

/** Everything a host can do to an existing invoice. */
export type InvoiceAction = 'revise' | 'finalize' | 'charge' | 'record_payment' | 'refund' | 'void';

/**
 * Statuses each action starts from (spec "Invoice status" + API.md). `paid` and `void` are terminal
 * for everything but refunds of a paid invoice's payments.
 */
export const ALLOWED_FROM: Readonly<Record<InvoiceAction, readonly InvoiceStatus[]>> = {
  revise: ['draft'],
  finalize: ['draft'],
  charge: ['open', 'payment_failed'],
  record_payment: ['open', 'payment_failed'],
  refund: ['open', 'payment_failed', 'paid'],
  void: ['draft', 'open', 'payment_failed'],
};

/** How each action reads in an error message: "Cannot <phrase> an invoice in status <status>." */
const ACTION_PHRASES: Readonly<Record<InvoiceAction, string>> = {
  revise: 'revise',
  finalize: 'finalize',
  charge: 'charge',
  record_payment: 'record a payment on',
  refund: 'refund a payment of',
  void: 'void',
};

/** Throws 409 `invalid_state` unless `action` may start from `status`. */
export function assertAllowed(action: InvoiceAction, status: InvoiceStatus): void {
  if (!ALLOWED_FROM[action].includes(status)) {
    throw new InvalidStateError(`Cannot ${ACTION_PHRASES[action]} an invoice in status ${status}.`);
  }
}

/** Void also needs the invoice to have taken no money: refund first, then it stays paid (audit). */
export function assertVoidable(status: InvoiceStatus, amountPaid: number): void {
  assertAllowed('void', status);
  if (amountPaid > 0) throw new InvalidStateError('Cannot void an invoice with succeeded payments.');
}

/** A payment may not exceed what is still owed. */
export function assertPayable(amount: number, amountDue: number): void {
  if (amount > amountDue) {
    throw new ValidationError({ path: 'amount', message: `must not exceed amountDue (${amountDue})` });
  }
}

/**
 * Status after a payment attempt: fully paid -> `paid`; a failed attempt -> `payment_failed`; a
 * partial payment keeps the current status (an invoice whose charge failed is still owed).
 */
export function statusAfterPayment(current: InvoiceStatus, outcome: 'succeeded' | 'failed', amountDue: number): InvoiceStatus {
  if (outcome === 'failed') return 'payment_failed';
  return amountDue === 0 ? 'paid' : current;
}
