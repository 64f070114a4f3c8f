import { listResult } from '../../shared/db/query.js';
import { implement } from '../../shared/http/operation.js';
import { webhooksRoutes } from '../../shared/http/routes/webhooks.js';
import { listEndpoints } from '../../shared/webhooks/webhook-endpoints-service.js';

export const listWebhookEndpoints = implement(webhooksRoutes.listEndpoints, async ({ workspaceId, query }) => {
  const { page = 0, limit, cursor, direction } = query;
  const request = { page, limit, cursor };
  return listResult(await listEndpoints(workspaceId, direction, request), request);
});
