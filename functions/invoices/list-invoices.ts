import { listResult } from '../../shared/db/query.js';
import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { listInvoices as list } from '../../shared/invoices/invoices-service.js';

export const listInvoices = implement(invoicesRoutes.listInvoices, async ({ workspaceId, query }) => {
  const { page = 0, limit, cursor, ...filter } = query;
  const request = { page, limit, cursor };
  return listResult(await list(workspaceId, filter, request), request);
});
