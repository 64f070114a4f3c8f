import { implement } from '../../shared/http/operation.js';
import { payoutsRoutes } from '../../shared/http/routes/payouts.js';
import { getBalance } from '../../shared/ledger/payouts-service.js';

export const getPayoutBalance = implement(payoutsRoutes.getBalance, async ({ workspaceId, query }) => ({
  data: await getBalance(workspaceId, query.eventId),
}));
