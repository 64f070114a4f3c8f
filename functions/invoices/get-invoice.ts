import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { requireInvoice } from '../../shared/invoices/invoices-service.js';

export const getInvoice = implement(invoicesRoutes.getInvoice, async ({ workspaceId, params }) => ({
  data: await requireInvoice(workspaceId, params.invoiceId),
}));
