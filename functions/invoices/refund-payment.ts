import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { refundPayment as refund } from '../../shared/invoices/invoice-payments-service.js';

export const refundPayment = implement(invoicesRoutes.refundPayment, async ({ workspaceId, params, body }) => ({
  data: await refund(workspaceId, params.invoiceId, params.paymentId, body),
}));
