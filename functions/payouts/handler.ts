import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import { createPayout } from './create-payout.js';
import { getPayoutBalance } from './get-payout-balance.js';

export const operations = [getPayoutBalance, createPayout];
export const handler = createGroupHandler('payouts', operations, { idempotency: runIdempotent });
