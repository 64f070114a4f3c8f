import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { createInvoice as create } from '../../shared/invoices/invoices-service.js';

export const createInvoice = implement(invoicesRoutes.createInvoice, async ({ workspaceId, body }) => ({
  data: await create(workspaceId, body),
}));
