import { listResult } from '../../shared/db/query.js';
import { implement } from '../../shared/http/operation.js';
import { webhooksRoutes } from '../../shared/http/routes/webhooks.js';
import { listDeliveries } from '../../shared/webhooks/webhook-endpoints-service.js';

export const listWebhookDeliveries = implement(webhooksRoutes.listDeliveries, async ({ workspaceId, params, query }) => {
  const { page = 0, limit, cursor, direction } = query;
  const request = { page, limit, cursor };
  return listResult(await listDeliveries(workspaceId, params.endpointId, direction, request), request);
});
