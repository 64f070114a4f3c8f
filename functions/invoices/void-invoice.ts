import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { parseIfMatch } from '../../shared/http/if-match.js';
import { voidInvoice as voidIt } from '../../shared/invoices/invoices-service.js';

export const voidInvoice = implement(invoicesRoutes.voidInvoice, async ({ workspaceId, params, headers }) => ({
  data: await voidIt(workspaceId, params.invoiceId, parseIfMatch(headers)),
}));
