import { listResult } from '../../shared/db/query.js';
import { implement } from '../../shared/http/operation.js';
import { responsesRoutes } from '../../shared/http/routes/responses.js';
import { listFormResponses as list } from '../../shared/responses/responses-service.js';

export const listFormResponses = implement(responsesRoutes.listFormResponses, async ({ workspaceId, params, query }) => {
  const { page = 0, limit, cursor, sort: _sort, ...filter } = query;
  const request = { page, limit, cursor };
  return listResult(await list(workspaceId, params.formId, filter, request), request);
});
