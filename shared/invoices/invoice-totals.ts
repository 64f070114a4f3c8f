import { ValidationError } from '../errors.js';
import type { LineItem, Payment } from './invoice-model.js';

export interface InvoiceTotals {
  subtotal: number;
  taxTotal: number;
  total: number;
  amountPaid: number;
  amountRefunded: number;
  amountDue: number;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function safe(value: bigint, path: string): number {
  if (value > MAX_SAFE) throw new ValidationError({ path, message: 'is too large: totals must stay within +/-9007199254740991' });
  return Number(value);
}

type Line = Pick<LineItem, 'quantity' | 'unitAmount' | 'taxAmount'>;
type PaymentAmounts = Pick<Payment, 'status' | 'amount'> & { refunds: readonly { amount: number }[] };

/**
 * Invoice totals in integer minor units (spec "Invoice"): subtotal = sum(quantity x unitAmount),
 * taxTotal = sum(taxAmount), total = subtotal + taxTotal, amountPaid = sum of succeeded payments
 * (failed attempts and refunds do not lower it), amountDue = total - amountPaid, never below 0.
 * BigInt keeps products exact; a total beyond the safe-integer range is a 422 on `lineItems`.
 */
export function computeTotals(lineItems: readonly Line[], payments: readonly PaymentAmounts[] = []): InvoiceTotals {
  let subtotal = 0n;
  let taxTotal = 0n;
  for (const line of lineItems) {
    subtotal += BigInt(line.quantity) * BigInt(line.unitAmount);
    taxTotal += BigInt(line.taxAmount ?? 0);
  }
  let amountPaid = 0;
  let amountRefunded = 0;
  for (const payment of payments) {
    if (payment.status !== 'succeeded') continue;
    amountPaid += payment.amount;
    for (const refund of payment.refunds) amountRefunded += refund.amount;
  }
  const total = safe(subtotal + taxTotal, 'lineItems');
  return {
    subtotal: safe(subtotal, 'lineItems'),
    taxTotal: safe(taxTotal, 'lineItems'),
    total,
    amountPaid,
    amountRefunded,
    amountDue: Math.max(0, total - amountPaid),
  };
}

/** `INV-000001`: six digits, growing beyond them after a million invoices. */
export function formatInvoiceNumber(sequence: number): string {
  return `INV-${String(sequence).padStart(6, '0')}`;
}
