import { ValidationError } from '../errors.js';
import { CURRENCIES } from '../model/primitives.js';
import type { BalanceEntry, CreatePayoutInput, Payout } from './payout-model.js';
import { newId } from '../ids.js';
import { outboxEvents } from '../webhooks/webhook-outbox.js';
import { buildBalanceEntry } from './balance-service.js';
import type { LedgerEntry } from './ledger-model.js';
import { bookPayout, readBalanceScope, settleScope } from './ledger-repository.js';

/**
 * GET /v1/events/balance: one entry per currency that saw money, account-wide or for one event.
 * Cost: per currency one Query of aggregates and one of the 10 most recent entries.
 */
export async function getBalance(workspaceId: string, eventId: string | undefined, now = new Date()): Promise<BalanceEntry[]> {
  const states = await Promise.all(CURRENCIES.map((currency) => readBalanceScope(workspaceId, currency, eventId, now)));
  return states.flatMap((state) => buildBalanceEntry(state, now, eventId !== undefined) ?? []);
}

/**
 * POST /v1/payouts: settles what has matured, then debits `available` with a conditional write in
 * the same transaction as the payout's ledger entry (422 when the money is not there).
 */
export async function createPayout(workspaceId: string, input: CreatePayoutInput, now = new Date()): Promise<Payout> {
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
  const payout: Payout = {
    id,
    currency: input.currency,
    amount: input.amount,
    ...(input.eventId === undefined ? {} : { eventId: input.eventId }),
    status: 'paid',
    ledgerEntryId: id,
    createdAt,
  };
  if (!(await bookPayout(workspaceId, entry, outboxEvents(workspaceId, [{ type: 'payout.created', object: payout }], now)))) {
    throw new ValidationError({ path: 'amount', message: `exceeds the available ${input.currency} balance${input.eventId === undefined ? '' : ' of the event'}` });
  }
  return payout;
}
