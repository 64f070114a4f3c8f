import { implement } from '../../shared/http/operation.js';
import { webhooksRoutes } from '../../shared/http/routes/webhooks.js';
import { deleteEndpoint } from '../../shared/webhooks/webhook-endpoints-service.js';

export const deleteWebhookEndpoint = implement(webhooksRoutes.deleteEndpoint, async ({ workspaceId, params }) => {
  await deleteEndpoint(workspaceId, params.endpointId);
  return undefined;
});
