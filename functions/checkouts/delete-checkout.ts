import { deleteCheckout } from '../../shared/checkouts/checkouts-service.js';
import { parseIfMatch } from '../../shared/http/if-match.js';
import { implement } from '../../shared/http/operation.js';
import { checkoutsRoutes } from '../../shared/http/routes/checkouts.js';

export const deleteCheckoutOperation = implement(checkoutsRoutes.deleteCheckout, async ({ workspaceId, params, headers }) => {
  await deleteCheckout(workspaceId, params.id, parseIfMatch(headers));
  return undefined;
});
