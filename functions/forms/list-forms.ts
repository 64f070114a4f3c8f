import { legacyListResult as listResult } from '../../shared/db/legacy-query.js';
import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { listFormsPage } from '../../shared/forms/forms-service.js';

export const listForms = implement(formsRoutes.listForms, async ({ workspaceId, query }) => {
  const { items, hasMore } = await listFormsPage(workspaceId, query);
  return listResult(items, query.page, query.limit, hasMore);
});
