import { implement } from '../../shared/http/operation.js';
import { propertiesRoutes } from '../../shared/http/routes/properties.js';
import { createPropertyInWorkspace } from '../../shared/properties/properties-service.js';

export const createProperty = implement(propertiesRoutes.createProperty, async ({ workspaceId, body }) => ({
  data: await createPropertyInWorkspace(workspaceId, body),
}));
