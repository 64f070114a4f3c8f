import * as z from 'zod';
import { entityAttribute, itemKey, type ItemKey } from '../db/table-design.js';
import { CURRENCIES, dateTimeSchema, idSchema, pickFields, type Currency, type SortDirection } from '../model/primitives.js';
import { echoedFields, type RoundTrip } from '../model/round-trip.js';
import type { LedgerEntry } from './ledger-model.js';
import { lazy } from '../model/lazy-schema.js';

/**
 * The payouts and balance model: what `GET /v1/events/balance` answers (Stripe-style balance
 * buckets), the payout object and the input that creates one. Routes build on these schemas.
 */

export const eventIdSchema = lazy(() => z.string().min(1).max(200).meta({ description: 'Event id as carried by invoice line items.' }));

export const balanceOrderSchema = lazy(() => z
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
  .meta({ id: 'BalanceOrder', description: 'One ledger entry.' }));

export const balanceBucketSchema = lazy(() => z
  .object({
    balance: z.number().int().meta({ description: 'Cents the host holds in this bucket (for `available_balance`: net minus payouts).' }),
    net: z.number().int().meta({ description: 'gross - fees - refunds.' }),
    gross: z.number().int(),
    fees: z.number().int(),
    currency: z.enum(CURRENCIES).nullable().meta({ description: 'Null on an empty bucket.' }),
    orders: z.array(balanceOrderSchema).meta({ description: 'Recent activity: the entries of this bucket among the 10 most recent ledger entries of the scope and currency (so it can be empty while the totals are not).' }),
    account_limit: z.number().optional(),
  })
  .meta({ id: 'BalanceBucket' }));

export const balanceEntrySchema = lazy(() => z
  .object({
    currency: z.enum(CURRENCIES).nullable(),
    available_balance: balanceBucketSchema.meta({ description: 'Settled money that can be paid out now.' }),
    pending_balance: balanceBucketSchema.meta({ description: 'Money still inside the processor\'s settlement delay.' }),
    instant_balance: balanceBucketSchema.meta({ description: 'What a payout can move right now. Account-wide it equals the available balance (payouts settle immediately); for an event it is capped at the account\'s available balance, which account-wide payouts draw on.' }),
    paid_out_balance: balanceBucketSchema.optional().meta({ description: 'Money paid out for the event; only when scoped to an event.' }),
  })
  .meta({ id: 'BalanceEntry' }));

export const payoutSchema = lazy(() => z
  .object({
    id: idSchema,
    currency: z.enum(CURRENCIES),
    amount: z.number().int().meta({ description: 'Paid out, in minor units.' }),
    eventId: z.string().optional().meta({ description: 'The event whose balance the payout was taken from; absent for an account-wide payout.' }),
    status: z.enum(['paid']).meta({ description: 'Payouts settle at once: always `paid`.' }),
    ledgerEntryId: idSchema.meta({ description: 'The balance ledger entry that booked it.' }),
    createdAt: dateTimeSchema,
  })
  .meta({
    id: 'Payout',
    example: { id: '6740f1a2c3d4e5f601234567', currency: 'USD', amount: 4000, eventId: '6740f1a2c3d4e5f601234568', status: 'paid', ledgerEntryId: '6740f1a2c3d4e5f601234567', createdAt: '2027-06-01T18:00:00.000Z' },
  }));

/** What a payout's GET returns that its create does not set: a GET body is taken as a copy (API.md "Round trips and references"). */
export const PAYOUT_ROUND_TRIP: RoundTrip = { resource: 'payout', readOnly: { id: undefined, status: undefined, ledgerEntryId: undefined, createdAt: undefined } };

export const createPayoutBodySchema = lazy(() => z
  .strictObject({
    ...echoedFields(payoutSchema.shape, PAYOUT_ROUND_TRIP, 'create'),
    currency: z.enum(CURRENCIES),
    amount: z.number().int('must be an integer number of minor units').min(1).max(9_007_199_254_740_991),
    eventId: eventIdSchema.optional(),
  })
  .meta({ id: 'CreatePayout' }));

export type BalanceOrder = z.infer<typeof balanceOrderSchema>;
export type BalanceBucket = z.infer<typeof balanceBucketSchema>;
export type BalanceEntry = z.infer<typeof balanceEntrySchema>;
export type Payout = z.infer<typeof payoutSchema>;
export type CreatePayoutInput = z.infer<typeof createPayoutBodySchema>;


export const PAYOUT_ENTITY = 'Payout';
export const PAYOUT_LIST_ENTRY_ENTITY = 'PayoutListEntry';

/** What a list of payouts can be narrowed and ordered by (the route's query, minus paging). */
export interface PayoutListFilter {
  currency?: Currency | undefined;
  eventId?: string | undefined;
  direction: SortDirection;
}

/**
 * Key builders: the only place payout keys are spelled. Payouts never change once made, so every
 * copy below is a full copy that never goes stale, written in the payout's own transaction.
 * - payout: `WS#<ws>#PAYOUT` / `<id>` (get by id).
 * - list entries, one per filter combination the payout matches, sort key `<createdAt>#<id>`
 *   (creation order to the millisecond, whatever the ids): `WS#<ws>#PAYOUTS_BY_CREATED`,
 *   `...#CURRENCY#<cur>`, `...#EVENT#<eventId>` and `...#CURRENCY#<cur>#EVENT#<eventId>`. The currency
 *   (an enum) comes before the free-form event id, so no event id can spell another partition.
 */
export const payoutKeys = {
  payout: (workspaceId: string, id: string): ItemKey => itemKey(`WS#${workspaceId}#PAYOUT`, id),
  listPartition: (workspaceId: string, filter: Pick<PayoutListFilter, 'currency' | 'eventId'>): string =>
    `WS#${workspaceId}#PAYOUTS_BY_CREATED${filter.currency === undefined ? '' : `#CURRENCY#${filter.currency}`}${filter.eventId === undefined ? '' : `#EVENT#${filter.eventId}`}`,
  listSort: (payout: Pick<Payout, 'id' | 'createdAt'>): string => `${payout.createdAt}#${payout.id}`,
};

/** The payout a payout ledger entry booked (the entry holds every figure of it). */
export function payoutOfEntry(entry: LedgerEntry): Payout {
  const id = entry.payoutId ?? entry.id;
  return {
    id,
    currency: entry.currency,
    amount: entry.paidOut,
    ...(entry.eventId === undefined ? {} : { eventId: entry.eventId }),
    status: 'paid',
    ledgerEntryId: entry.id,
    createdAt: entry.createdAt,
  };
}

/** The payout item and its list entries (2 without an event, 4 with one): every item of one payout. */
export function toPayoutItems(workspaceId: string, payout: Payout): Record<string, unknown>[] {
  const filters: Pick<PayoutListFilter, 'currency' | 'eventId'>[] = [{}, { currency: payout.currency }];
  if (payout.eventId !== undefined) filters.push({ eventId: payout.eventId }, { currency: payout.currency, eventId: payout.eventId });
  return [
    { ...payoutKeys.payout(workspaceId, payout.id), ...entityAttribute(PAYOUT_ENTITY), ...payout },
    ...filters.map((filter) => ({ ...itemKey(payoutKeys.listPartition(workspaceId, filter), payoutKeys.listSort(payout)), ...entityAttribute(PAYOUT_LIST_ENTRY_ENTITY), ...payout })),
  ];
}

/** Maps a payout item (or a list entry: the same fields) back to the public shape. */
export function fromPayoutItem(item: Record<string, unknown>): Payout {
  return pickFields<Payout>(item, payoutSchema);
}
