import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { reviseInvoice as revise } from '../../shared/invoices/invoices-service.js';

export const reviseInvoice = implement(invoicesRoutes.reviseInvoice, async ({ workspaceId, params, body, ifMatch }) => ({
  data: await revise(workspaceId, params.invoiceId, body, ifMatch),
}));
