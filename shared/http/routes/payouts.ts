import * as z from 'zod';
import { defineRoute } from '../route.js';
import { balanceEntrySchema, createPayoutBodySchema, eventIdSchema, payoutSchema } from '../../ledger/payout-model.js';
import { dataResponse } from '../schemas.js';

export const payoutsRoutes = {
  getBalance: defineRoute({
    group: 'payouts',
    operation: 'getPayoutBalance',
    method: 'GET',
    path: '/v1/events/balance',
    auth: 'key',
    tags: ['Payout balance'],
    summary: 'Payout balance',
    description: 'One entry per currency with ledger activity. Account-wide, or for one event with `eventId` (then `paid_out_balance` is present). Reads per-currency aggregates, never the order history: the cost does not grow with the number of orders.',
    query: z.strictObject({ eventId: eventIdSchema.optional() }),
    success: { status: 200, description: 'Balances per currency.', schema: dataResponse(z.array(balanceEntrySchema)).meta({ id: 'PayoutBalance' }) },
    errors: [400, 401, 403],
  }),
  createPayout: defineRoute({
    group: 'payouts',
    operation: 'createPayout',
    method: 'POST',
    path: '/v1/payouts',
    auth: 'key',
    tags: ['Payout balance'],
    summary: 'Pay out available money',
    description: 'Moves `amount` from `available_balance` to paid out (account-wide, or for one event with `eventId`, which also lowers the account\'s available balance). Above what is available is 422, also under concurrent requests.',
    body: createPayoutBodySchema,
    success: { status: 201, description: 'The payout.', schema: dataResponse(payoutSchema) },
    errors: [401, 403, 409, 422],
  }),
};
