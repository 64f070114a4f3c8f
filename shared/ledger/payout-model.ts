import * as z from 'zod';
import { CURRENCIES, dateTimeSchema, idSchema } from '../model/primitives.js';

/**
 * The payouts and balance model: what `GET /v1/events/balance` answers (Stripe-style balance
 * buckets), the payout object and the input that creates one. Routes build on these schemas.
 */

export const eventIdSchema = z.string().min(1).max(200).meta({ description: 'Event id as carried by invoice line items.' });

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

