import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import { createPayout } from './create-payout.js';
import { getPayout } from './get-payout.js';
import { getPayoutBalance } from './get-payout-balance.js';
import { listPayouts } from './list-payouts.js';

export const operations = [getPayoutBalance, createPayout, listPayouts, getPayout];
export const handler = createGroupHandler('payouts', operations, { idempotency: runIdempotent });
