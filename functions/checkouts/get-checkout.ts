import { getCheckout } from '../../shared/checkouts/checkouts-service.js';
import { implement } from '../../shared/http/operation.js';
import { checkoutsRoutes } from '../../shared/http/routes/checkouts.js';

/** The spec wraps this one response as `{checkout}` rather than `{data}`. */
export const getCheckoutOperation = implement(checkoutsRoutes.getCheckout, async ({ workspaceId, params, baseUrl }) => ({
  checkout: await getCheckout(workspaceId, params.id, { baseUrl }),
}));
