import { implement } from '../../shared/http/operation.js';
import { propertiesRoutes } from '../../shared/http/routes/properties.js';
import { updateProperty as updatePropertyInWorkspace } from '../../shared/properties/properties-service.js';

export const updateProperty = implement(propertiesRoutes.updateProperty, async ({ workspaceId, params, body, ifMatch }) => ({
  data: await updatePropertyInWorkspace(workspaceId, params.id, body, ifMatch),
}));
