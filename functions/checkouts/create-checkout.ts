import { createCheckout } from '../../shared/checkouts/checkouts-service.js';
import { implement } from '../../shared/http/operation.js';
import { checkoutsRoutes } from '../../shared/http/routes/checkouts.js';

export const createCheckoutOperation = implement(checkoutsRoutes.createCheckout, async ({ workspaceId, body, baseUrl }) => ({
  data: await createCheckout(workspaceId, body, { baseUrl }),
}));
