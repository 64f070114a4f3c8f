import { updateCheckout } from '../../shared/checkouts/checkouts-service.js';
import { implement } from '../../shared/http/operation.js';
import { checkoutsRoutes } from '../../shared/http/routes/checkouts.js';

export const updateCheckoutOperation = implement(checkoutsRoutes.updateCheckout, async ({ workspaceId, params, body, ifMatch, baseUrl }) => ({
  data: await updateCheckout(workspaceId, params.id, body, { baseUrl, ifMatch: ifMatch }),
}));
