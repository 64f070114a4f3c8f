import { listResult } from '../../shared/db/query.js';
import { implement } from '../../shared/http/operation.js';
import { invoicesRoutes } from '../../shared/http/routes/invoices.js';
import { listInvoices as list } from '../../shared/invoices/invoices-service.js';

export const listInvoices = implement(invoicesRoutes.listInvoices, async ({ workspaceId, query }) => {
  const { items, hasMore } = await list(workspaceId, query);
  return listResult(items, query.page, query.limit, hasMore);
});
