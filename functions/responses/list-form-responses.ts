import { listResult } from '../../shared/db/query.js';
import { implement } from '../../shared/http/operation.js';
import { responsesRoutes } from '../../shared/http/routes/responses.js';
import { listFormResponses as list } from '../../shared/responses/responses-service.js';

export const listFormResponses = implement(responsesRoutes.listFormResponses, async ({ workspaceId, params, query }) => {
  const { items, hasMore } = await list(workspaceId, params.formId, query);
  return listResult(items, query.page, query.limit, hasMore);
});
