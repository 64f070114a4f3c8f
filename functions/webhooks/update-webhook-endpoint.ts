import { implement } from '../../shared/http/operation.js';
import { webhooksRoutes } from '../../shared/http/routes/webhooks.js';
import { updateEndpoint } from '../../shared/webhooks/webhook-endpoints-service.js';

export const updateWebhookEndpoint = implement(webhooksRoutes.updateEndpoint, async ({ workspaceId, params, body }) => ({
  data: await updateEndpoint(workspaceId, params.endpointId, body),
}));
