import { implement } from '../../shared/http/operation.js';
import { webhooksRoutes } from '../../shared/http/routes/webhooks.js';
import { createEndpoint } from '../../shared/webhooks/webhook-endpoints-service.js';

export const createWebhookEndpoint = implement(webhooksRoutes.createEndpoint, async ({ workspaceId, body }) => ({
  data: await createEndpoint(workspaceId, body),
}));
