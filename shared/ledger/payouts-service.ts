import type { Page, PageRequest } from '../db/query.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { CURRENCIES } from '../model/primitives.js';
import { payoutOfEntry, type BalanceEntry, type CreatePayoutInput, type Payout, type PayoutListFilter } from './payout-model.js';
import { newId } from '../ids.js';
import { assertEventsExist } from '../events/event-references.js';
import { outboxEvents } from '../webhooks/webhook-outbox.js';
import { availableOf, buildBalanceEntry } from './balance-service.js';
import type { LedgerEntry } from './ledger-model.js';
import { bookPayout, readBalanceScope, readMaturedSteps, readScopeItems, settleScope } from './ledger-repository.js';
import { getPayout, listPayouts as listPayoutPage } from './payouts-repository.js';

/**
 * GET /v1/events/balance: one entry per currency that saw money, account-wide or for one event.
 * Cost: per currency one Query of aggregates and one of the 10 most recent entries; for an event, one
 * more of the account's aggregates (its `instant_balance` is no more than the account can pay out).
 */
export async function getBalance(workspaceId: string, eventId: string | undefined, now = new Date()): Promise<BalanceEntry[]> {
  const entries = await Promise.all(CURRENCIES.map(async (currency) => {
    const [state, account] = await Promise.all([
      readBalanceScope(workspaceId, currency, eventId, now),
      eventId === undefined ? undefined : readScopeItems(workspaceId, currency, undefined).then(async ({ totals, buckets }) => ({
        totals, buckets, steps: await readMaturedSteps(workspaceId, currency, undefined, buckets, now),
      })),
    ]);
    const accountAvailable = account ? availableOf(account.totals, account.buckets, account.steps, now) : undefined;
    return buildBalanceEntry(state, now, eventId !== undefined, accountAvailable) ?? [];
  }));
  return entries.flat();
}

/**
 * POST /v1/payouts: settles what has matured, then debits `available` with a conditional write in
 * the same transaction as the payout's ledger entry (422 when the money is not there).
 */
export async function createPayout(workspaceId: string, input: CreatePayoutInput, now = new Date()): Promise<Payout> {
  // The reference before the balance: an unknown event is reported on `eventId`, not as a missing balance.
  if (input.eventId !== undefined) await assertEventsExist(workspaceId, [{ path: 'eventId', eventId: input.eventId }]);
  await settleScope(workspaceId, input.currency, undefined, now);
  if (input.eventId !== undefined) await settleScope(workspaceId, input.currency, input.eventId, now);
  const id = newId(now);
  const createdAt = now.toISOString();
  const entry: LedgerEntry = {
    id,
    type: 'payout',
    currency: input.currency,
    gross: 0,
    platformFee: 0,
    processorFee: 0,
    fees: 0,
    refundedAmount: 0,
    paidOut: input.amount,
    net: -input.amount,
    ...(input.eventId === undefined ? {} : { eventId: input.eventId }),
    payoutId: id,
    availableAt: createdAt,
    createdAt,
  };
  const payout = payoutOfEntry(entry);
  const short = await bookPayout(workspaceId, entry, outboxEvents(workspaceId, [{ type: 'payout.created', object: payout }], now));
  if (short === 'event') throw new ValidationError({ path: 'amount', message: `exceeds the available ${input.currency} balance of the event` });
  if (short === 'account') {
    throw new ValidationError({ path: 'amount', message: input.eventId === undefined
      ? `exceeds the available ${input.currency} balance`
      : `exceeds what the account can pay out in ${input.currency}: account-wide payouts draw on every event's money (the event's instant_balance shows what is left)` });
  }
  return payout;
}

/** GET /v1/payouts: one page of the workspace's payouts, newest first unless `direction=asc`. */
export async function listPayouts(workspaceId: string, filter: PayoutListFilter, request: PageRequest): Promise<Page<Payout>> {
  return listPayoutPage(workspaceId, filter, request);
}

/** GET /v1/payouts/{payoutId}: 404 when absent or another workspace's (the key holds the workspace). */
export async function requirePayout(workspaceId: string, id: string): Promise<Payout> {
  const payout = await getPayout(workspaceId, id);
  if (!payout) throw new NotFoundError('Payout');
  return payout;
}
