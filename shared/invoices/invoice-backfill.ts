import { BackfillRaceError, type BackfillStep } from '../db/backfill.js';
import { versionIs } from '../db/conditional.js';
import { transaction } from '../db/transaction.js';
import { INVOICE_ENTITY, fromInvoiceItem, invoiceKeys, projectionChanges } from './invoice-model.js';

/**
 * Invoice list projections (by customer, by status, by customer and status) for invoices written
 * before a projection existed: puts of the projections the invoice has now (idempotent), checked
 * against the invoice's version in the same transaction, so a change made since the scan read the
 * invoice (which wrote its own projections) is never overwritten with stale ones.
 */
export const invoiceProjectionsBackfill: BackfillStep = {
  name: 'invoice list projections (customer, status, customer+status)',
  entity: INVOICE_ENTITY,
  async rebuild(item) {
    const invoice = fromInvoiceItem(item);
    const workspaceId = invoice.hostId;
    const { puts } = projectionChanges(workspaceId, undefined, invoice);
    const tx = transaction().check(invoiceKeys.invoice(workspaceId, invoice.id), { ...versionIs(invoice.version, 'invoice'), onFailed: () => new BackfillRaceError() });
    for (const projection of puts) tx.put(projection);
    await tx.commit();
    return puts.length;
  },
};
