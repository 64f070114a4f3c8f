import { implement } from '../../shared/http/operation.js';
import { propertiesRoutes } from '../../shared/http/routes/properties.js';
import { requireProperty } from '../../shared/properties/properties-service.js';

export const getProperty = implement(propertiesRoutes.getProperty, async ({ workspaceId, params }) => ({
  data: await requireProperty(workspaceId, params.id),
}));
