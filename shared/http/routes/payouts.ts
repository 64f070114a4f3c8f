import * as z from 'zod';
import { defineRoute } from '../route.js';
import { dataResponse, dateTimeSchema, idSchema } from '../schemas.js';
import { CURRENCIES } from './invoices.js';

const eventIdSchema = z.string().min(1).max(200).meta({ description: 'Event id as carried by invoice line items.' });

export const balanceOrderSchema = z
  .looseObject({
    _id: idSchema.meta({ description: 'Ledger entry id.' }),
    type: z.enum(['payment', 'refund', 'payout']),
    gross: z.number().int(),
    fees: z.number().int(),
    platformFee: z.number().int(),
    processorFee: z.number().int(),
    refundedAmount: z.number().int(),
    net: z.number().int().meta({ description: 'Effect on the balance: `gross - fees - refundedAmount` (payments and refunds), `-amount` (payouts).' }),
    latest_charge: z.string().optional(),
    event_id: z.string().optional(),
    invoice_id: z.string().optional(),
    available_on: dateTimeSchema,
    created: dateTimeSchema,
  })
  .meta({ id: 'BalanceOrder', description: 'One ledger entry.' });

export const balanceBucketSchema = z
  .object({
    balance: z.number().int().meta({ description: 'Cents the host holds in this bucket (for `available_balance`: net minus payouts).' }),
    net: z.number().int().meta({ description: 'gross - fees - refunds.' }),
    gross: z.number().int(),
    fees: z.number().int(),
    currency: z.enum(CURRENCIES).nullable().meta({ description: 'Null on an empty bucket.' }),
    orders: z.array(balanceOrderSchema).meta({ description: 'Recent activity: the entries of this bucket among the 10 most recent ledger entries of the scope and currency (so it can be empty while the totals are not).' }),
    account_limit: z.number().optional(),
  })
  .meta({ id: 'BalanceBucket' });

export const balanceEntrySchema = z
  .object({
    currency: z.enum(CURRENCIES).nullable(),
    available_balance: balanceBucketSchema.meta({ description: 'Settled money that can be paid out now.' }),
    pending_balance: balanceBucketSchema.meta({ description: 'Money still inside the processor\'s settlement delay.' }),
    instant_balance: balanceBucketSchema.meta({ description: 'What a payout can move right now: payouts settle immediately here, so it equals the available balance.' }),
    paid_out_balance: balanceBucketSchema.optional().meta({ description: 'Money paid out for the event; only when scoped to an event.' }),
  })
  .meta({ id: 'BalanceEntry' });

export const payoutSchema = z
  .object({
    id: idSchema,
    currency: z.enum(CURRENCIES),
    amount: z.number().int(),
    eventId: z.string().optional(),
    status: z.enum(['paid']),
    ledgerEntryId: idSchema,
    createdAt: dateTimeSchema,
  })
  .meta({ id: 'Payout' });

export const createPayoutBodySchema = z
  .strictObject({
    currency: z.enum(CURRENCIES),
    amount: z.number().int('must be an integer number of minor units').min(1).max(9_007_199_254_740_991),
    eventId: eventIdSchema.optional(),
  })
  .meta({ id: 'CreatePayout' });

export type BalanceOrder = z.infer<typeof balanceOrderSchema>;
export type BalanceBucket = z.infer<typeof balanceBucketSchema>;
export type BalanceEntry = z.infer<typeof balanceEntrySchema>;
export type Payout = z.infer<typeof payoutSchema>;
export type CreatePayoutInput = z.infer<typeof createPayoutBodySchema>;

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
