import { parseIfMatch } from '../../shared/http/if-match.js';
import { implement } from '../../shared/http/operation.js';
import { propertiesRoutes } from '../../shared/http/routes/properties.js';
import { updateProperty as updatePropertyInWorkspace } from '../../shared/properties/properties-service.js';

export const updateProperty = implement(propertiesRoutes.updateProperty, async ({ workspaceId, params, body, headers }) => ({
  data: await updatePropertyInWorkspace(workspaceId, params.id, body, parseIfMatch(headers)),
}));
