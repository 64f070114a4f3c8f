import { listResult } from '../../shared/db/query.js';
import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { listFormsPage } from '../../shared/forms/forms-service.js';

export const listForms = implement(formsRoutes.listForms, async ({ workspaceId, query }) => {
  const { page = 0, limit, cursor, ...list } = query;
  const request = { page, limit, cursor };
  return listResult(await listFormsPage(workspaceId, list, request), request);
});
