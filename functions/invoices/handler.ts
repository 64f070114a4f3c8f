import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import { chargeInvoice } from './charge-invoice.js';
import { createInvoice } from './create-invoice.js';
import { finalizeInvoice } from './finalize-invoice.js';
import { getInvoice } from './get-invoice.js';
import { listInvoices } from './list-invoices.js';
import { recordPayment } from './record-payment.js';
import { refundPayment } from './refund-payment.js';
import { reviseInvoice } from './revise-invoice.js';
import { voidInvoice } from './void-invoice.js';

export const operations = [
  createInvoice, listInvoices, getInvoice, reviseInvoice, finalizeInvoice, chargeInvoice, recordPayment, refundPayment, voidInvoice,
];
export const handler = createGroupHandler('invoices', operations, { idempotency: runIdempotent });
