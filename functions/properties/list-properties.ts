import { legacyListResult as listResult } from '../../shared/db/legacy-query.js';
import { implement } from '../../shared/http/operation.js';
import { propertiesRoutes } from '../../shared/http/routes/properties.js';
import { listPropertiesOfWorkspace } from '../../shared/properties/properties-service.js';

export const listProperties = implement(propertiesRoutes.listProperties, async ({ workspaceId, query }) => {
  const { items, hasMore } = await listPropertiesOfWorkspace(workspaceId, query);
  return listResult(items, query.page, query.limit, hasMore);
});
