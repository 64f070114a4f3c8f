import { listResult } from '../../shared/db/query.js';
import { implement } from '../../shared/http/operation.js';
import { propertiesRoutes } from '../../shared/http/routes/properties.js';
import { listPropertiesOfWorkspace } from '../../shared/properties/properties-service.js';

export const listProperties = implement(propertiesRoutes.listProperties, async ({ workspaceId, query }) => {
  const { page = 0, limit, cursor, ...list } = query;
  const request = { page, limit, cursor };
  return listResult(await listPropertiesOfWorkspace(workspaceId, list, request), request);
});
