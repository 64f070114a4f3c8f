import { implement } from '../../shared/http/operation.js';
import { webhooksRoutes } from '../../shared/http/routes/webhooks.js';
import { redeliver } from '../../shared/webhooks/webhook-endpoints-service.js';

export const redeliverWebhook = implement(webhooksRoutes.redeliver, async ({ workspaceId, params }) => ({
  data: await redeliver(workspaceId, params.endpointId, params.deliveryId),
}));
