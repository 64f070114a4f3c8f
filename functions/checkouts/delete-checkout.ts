import { deleteCheckout } from '../../shared/checkouts/checkouts-service.js';
import { implement } from '../../shared/http/operation.js';
import { checkoutsRoutes } from '../../shared/http/routes/checkouts.js';

export const deleteCheckoutOperation = implement(checkoutsRoutes.deleteCheckout, async ({ workspaceId, params, ifMatch }) => {
  await deleteCheckout(workspaceId, params.id, ifMatch);
  return undefined;
});
