import { implement } from '../../shared/http/operation.js';
import { payoutsRoutes } from '../../shared/http/routes/payouts.js';
import { createPayout as create } from '../../shared/ledger/payouts-service.js';

export const createPayout = implement(payoutsRoutes.createPayout, async ({ workspaceId, body }) => ({
  data: await create(workspaceId, body),
}));
