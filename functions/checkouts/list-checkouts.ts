import { listCheckouts } from '../../shared/checkouts/checkouts-service.js';
import { implement } from '../../shared/http/operation.js';
import { checkoutsRoutes } from '../../shared/http/routes/checkouts.js';

export const listCheckoutsOperation = implement(checkoutsRoutes.listCheckouts, async ({ workspaceId, query, baseUrl }) => listCheckouts(workspaceId, query, { baseUrl }));
