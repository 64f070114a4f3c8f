import { implement } from '../../shared/http/operation.js';
import { webhooksRoutes } from '../../shared/http/routes/webhooks.js';
import { rotateSecret } from '../../shared/webhooks/webhook-endpoints-service.js';

export const rotateWebhookEndpointSecret = implement(webhooksRoutes.rotateSecret, async ({ workspaceId, params }) => ({
  data: await rotateSecret(workspaceId, params.endpointId),
}));
