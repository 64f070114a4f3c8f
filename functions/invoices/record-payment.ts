import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { recordPayment as record } from '../../shared/invoices/invoice-payments-service.js';

export const recordPayment = implement(invoicesRoutes.recordPayment, async ({ workspaceId, params, body }) => ({
  data: await record(workspaceId, params.invoiceId, body),
}));
