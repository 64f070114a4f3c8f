import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { finalizeInvoice as finalize } from '../../shared/invoices/invoice-payments-service.js';

export const finalizeInvoice = implement(invoicesRoutes.finalizeInvoice, async ({ workspaceId, params, ifMatch }) => ({
  data: await finalize(workspaceId, params.invoiceId, ifMatch),
}));
