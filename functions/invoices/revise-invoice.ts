import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { parseIfMatch } from '../../shared/http/if-match.js';
import { reviseInvoice as revise } from '../../shared/invoices/invoices-service.js';

export const reviseInvoice = implement(invoicesRoutes.reviseInvoice, async ({ workspaceId, params, body, headers }) => ({
  data: await revise(workspaceId, params.invoiceId, body, parseIfMatch(headers)),
}));
