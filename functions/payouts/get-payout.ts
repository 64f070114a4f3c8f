import { implement } from '../../shared/http/operation.js';
import { payoutsRoutes } from '../../shared/http/routes/payouts.js';
import { requirePayout } from '../../shared/ledger/payouts-service.js';

export const getPayout = implement(payoutsRoutes.getPayout, async ({ workspaceId, params }) => ({
  data: await requirePayout(workspaceId, params.payoutId),
}));
