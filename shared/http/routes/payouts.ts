import * as z from 'zod';
import { defineRoute } from '../route.js';
import { balanceEntrySchema, createPayoutBodySchema, payoutSchema } from '../../ledger/payout-model.js';
import { CURRENCIES } from '../../model/primitives.js';
import { cursorListQuery, cursorListResponse, dataResponse, idParams, idSchema } from '../schemas.js';
import { lazy } from '../../model/lazy-schema.js';

// Event filters take the id format (as the invoices list's `customerId` does): a malformed id is 400
// `invalid_query` (API.md Conventions), not an empty answer that reads as "no money for this event".
export const payoutListQuerySchema = lazy(() => cursorListQuery(['createdAt'], 'createdAt', {
  currency: z.enum(CURRENCIES).optional().meta({ description: 'Only payouts in this currency.' }),
  eventId: idSchema.optional().meta({ description: 'Only payouts taken from this event\'s balance.' }),
}, { defaultDirection: 'desc' }));
const balanceQuerySchema = lazy(() => z.strictObject({
  eventId: idSchema.optional().meta({ description: 'Scopes the balance to this event; account-wide when omitted.' }),
}));
export type PayoutListQuery = z.infer<typeof payoutListQuerySchema>;

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
    query: balanceQuerySchema,
    success: { status: 200, description: 'Balances per currency.', schema: lazy(() => dataResponse(z.array(balanceEntrySchema)).meta({ id: 'PayoutBalance' })) },
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
    success: { status: 201, description: 'The payout.', schema: lazy(() => dataResponse(payoutSchema)) },
    errors: [401, 403, 409, 422],
  }),
  listPayouts: defineRoute({
    group: 'payouts',
    operation: 'listPayouts',
    method: 'GET',
    path: '/v1/payouts',
    auth: 'key',
    tags: ['Payout balance'],
    summary: 'List payouts',
    description: 'Generic list, newest first (`direction=asc` for oldest first). Every sort and filter is served by an index: a page costs the same at any depth.',
    query: payoutListQuerySchema,
    success: { status: 200, description: 'One page of payouts.', schema: lazy(() => cursorListResponse(payoutSchema).meta({ id: 'PayoutList' })) },
    errors: [400, 401, 403],
  }),
  getPayout: defineRoute({
    group: 'payouts',
    operation: 'getPayout',
    method: 'GET',
    path: '/v1/payouts/{payoutId}',
    auth: 'key',
    tags: ['Payout balance'],
    summary: 'Get a payout',
    description: 'Another workspace\'s payout is a 404, like an absent one.',
    params: lazy(() => idParams('payoutId')),
    success: { status: 200, description: 'The payout.', schema: lazy(() => dataResponse(payoutSchema)) },
    errors: [401, 403, 404],
  }),
};
