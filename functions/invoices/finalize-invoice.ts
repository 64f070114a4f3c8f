import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { parseIfMatch } from '../../shared/http/if-match.js';
import { finalizeInvoice as finalize } from '../../shared/invoices/invoice-payments-service.js';

export const finalizeInvoice = implement(invoicesRoutes.finalizeInvoice, async ({ workspaceId, params, headers }) => ({
  data: await finalize(workspaceId, params.invoiceId, parseIfMatch(headers)),
}));
