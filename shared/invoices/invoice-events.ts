import type { OutboxEvent } from '../webhooks/webhook-outbox.js';
import { fromInvoiceItem, toInvoiceItem, type Invoice } from './invoice-model.js';

/**
 * The webhook events an invoice change announces, read off the change itself (before -> after), so
 * that every path that changes an invoice emits them and none can forget: finalized (draft -> issued),
 * paid (-> paid), payment_failed (a failed charge appended), voided (-> void). A finalize that charges
 * the saved card announces both its finalize and the charge's outcome. The object is the invoice as
 * GET returns it.
 */
export function invoiceEvents(workspaceId: string, before: Invoice, after: Invoice): OutboxEvent[] {
  const types: OutboxEvent['type'][] = [];
  if (before.status === 'draft' && after.status !== 'draft' && after.status !== 'void') types.push('invoice.finalized');
  if (after.payments.slice(before.payments.length).some((payment) => payment.status === 'failed')) types.push('invoice.payment_failed');
  if (after.status === 'paid' && before.status !== 'paid') types.push('invoice.paid');
  if (after.status === 'void' && before.status !== 'void') types.push('invoice.voided');
  if (types.length === 0) return [];
  const object = fromInvoiceItem(toInvoiceItem(workspaceId, after));
  return types.map((type) => ({ type, object }));
}
