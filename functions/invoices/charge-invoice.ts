import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { chargeInvoice as charge } from '../../shared/invoices/invoice-payments-service.js';

export const chargeInvoice = implement(invoicesRoutes.chargeInvoice, async ({ workspaceId, params }) => ({
  data: await charge(workspaceId, params.invoiceId),
}));
