import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { voidInvoice as voidIt } from '../../shared/invoices/invoices-service.js';

export const voidInvoice = implement(invoicesRoutes.voidInvoice, async ({ workspaceId, params, ifMatch }) => ({
  data: await voidIt(workspaceId, params.invoiceId, ifMatch),
}));
