import { implement } from '../../shared/http/operation.js';
import { webhooksRoutes } from '../../shared/http/routes/webhooks.js';
import { getEndpoint } from '../../shared/webhooks/webhook-endpoints-service.js';

export const getWebhookEndpoint = implement(webhooksRoutes.getEndpoint, async ({ workspaceId, params }) => ({
  data: await getEndpoint(workspaceId, params.endpointId),
}));
