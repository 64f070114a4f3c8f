import { listResult } from '../../shared/db/query.js';
import { implement } from '../../shared/http/operation.js';
import { payoutsRoutes } from '../../shared/http/routes/payouts.js';
import { listPayouts as list } from '../../shared/ledger/payouts-service.js';

export const listPayouts = implement(payoutsRoutes.listPayouts, async ({ workspaceId, query }) => {
  const { page = 0, limit, cursor, sort: _sort, ...filter } = query;
  const request = { page, limit, cursor };
  return listResult(await list(workspaceId, filter, request), request);
});
