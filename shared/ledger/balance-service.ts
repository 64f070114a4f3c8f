import type { Currency } from '../model/primitives.js';
import type { BalanceBucket, BalanceEntry, BalanceOrder } from './payout-model.js';
import type { BalanceTotals, LedgerEntry, SettlementBucket } from './ledger-model.js';

/** `orders` of each bucket: the most recent ledger entries of the scope and currency, at most this many. */
export const RECENT_ORDERS = 10;

export interface BalanceScopeState {
  currency: Currency;
  totals: BalanceTotals | undefined;
  buckets: readonly SettlementBucket[];
  /** The matured steps of the bucket whose hour has begun (their money is still in that bucket). */
  maturedSteps?: readonly SettlementBucket[];
  /** The most recent ledger entries, newest first. */
  recent: readonly LedgerEntry[];
}

interface Sums { gross: number; fees: number; refunds: number; net: number; entries: number }

const ZERO: Sums = { gross: 0, fees: 0, refunds: 0, net: 0, entries: 0 };

function add(a: Sums, b: Sums): Sums {
  return { gross: a.gross + b.gross, fees: a.fees + b.fees, refunds: a.refunds + b.refunds, net: a.net + b.net, entries: a.entries + b.entries };
}

function toOrder(entry: LedgerEntry): BalanceOrder {
  return {
    _id: entry.id,
    type: entry.type,
    gross: entry.gross,
    fees: entry.fees,
    platformFee: entry.platformFee,
    processorFee: entry.processorFee,
    refundedAmount: entry.refundedAmount,
    net: entry.net,
    ...(entry.latestCharge === undefined ? {} : { latest_charge: entry.latestCharge }),
    ...(entry.eventId === undefined ? {} : { event_id: entry.eventId }),
    ...(entry.invoiceId === undefined ? {} : { invoice_id: entry.invoiceId }),
    available_on: entry.availableAt,
    created: entry.createdAt,
  };
}

function bucket(currency: Currency, sums: Sums, balance: number, orders: LedgerEntry[], nonEmpty: boolean): BalanceBucket {
  return {
    balance,
    net: sums.net,
    gross: sums.gross,
    fees: sums.fees,
    currency: nonEmpty ? currency : null,
    orders: orders.map(toOrder),
  };
}

const sumsOf = (item: SettlementBucket): Sums => ({ gross: item.gross, fees: item.fees, refunds: item.refunds, net: item.net, entries: item.entries });
const negated = (sums: Sums): Sums => ({ gross: -sums.gross, fees: -sums.fees, refunds: -sums.refunds, net: -sums.net, entries: -sums.entries });

/**
 * Pending money split at `now`: matured buckets count as available (even before they are folded into
 * the totals), and so do the matured steps of the bucket in its hour, which leave its pending sums.
 */
function maturedSums(buckets: readonly SettlementBucket[], steps: readonly SettlementBucket[], nowMs: number): { matured: Sums; pending: Sums } {
  let matured = ZERO;
  let pending = ZERO;
  for (const item of buckets) {
    if (Date.parse(item.availableAt) <= nowMs) matured = add(matured, sumsOf(item));
    else pending = add(pending, sumsOf(item));
  }
  for (const step of steps) {
    matured = add(matured, sumsOf(step));
    pending = add(pending, negated(sumsOf(step)));
  }
  return { matured, pending };
}

/** What a scope can pay out at `now`: settled net (matured buckets and steps included) minus its payouts. */
export function availableOf(totals: BalanceTotals | undefined, buckets: readonly SettlementBucket[], steps: readonly SettlementBucket[], now: Date): number {
  return (totals?.settledNet ?? 0) + maturedSums(buckets, steps, now.getTime()).matured.net - (totals?.paidOut ?? 0);
}

/**
 * The spec's per-currency balance entry, from one scope's aggregates: settled totals, the settlement
 * buckets (matured ones count as available even before they are folded into the totals) and the
 * most recent entries. Pure: the caller decides `now`. Undefined when the scope never saw money.
 *
 * - available: settled net minus payouts (`balance`); gross/fees/net of everything settled.
 * - pending: the buckets still inside the settlement delay.
 * - instant: what a payout can move right now; payouts land at once here, so it equals available,
 *   except for an event when the account has less (`accountAvailable`): account-wide payouts draw on
 *   every event's money, and a payout for the event takes from both.
 * - paid_out (event scope only): the sum of payouts.
 */
export function buildBalanceEntry(state: BalanceScopeState, now: Date, eventScoped: boolean, accountAvailable?: number): BalanceEntry | undefined {
  const { currency, totals, buckets, recent } = state;
  if (!totals && buckets.length === 0) return undefined;
  const nowMs = now.getTime();
  const { matured, pending } = maturedSums(buckets, state.maturedSteps ?? [], nowMs);
  const settled = add(matured, totals
    ? { gross: totals.settledGross, fees: totals.settledFees, refunds: totals.settledRefunds, net: totals.settledNet, entries: totals.settledEntries }
    : ZERO);
  const paidOut = totals?.paidOut ?? 0;
  const payouts = totals?.payouts ?? 0;
  const moneyEntries = recent.filter((entry) => entry.type !== 'payout');
  const availableOrders = moneyEntries.filter((entry) => Date.parse(entry.availableAt) <= nowMs);
  const pendingOrders = moneyEntries.filter((entry) => Date.parse(entry.availableAt) > nowMs);
  const availableNonEmpty = settled.entries > 0 || payouts > 0;
  const available = bucket(currency, settled, settled.net - paidOut, availableOrders, availableNonEmpty);
  const result: BalanceEntry = {
    currency,
    available_balance: available,
    pending_balance: bucket(currency, pending, pending.net, pendingOrders, pending.entries > 0),
    instant_balance: { ...available, balance: Math.min(available.balance, accountAvailable ?? available.balance), orders: [...available.orders] },
  };
  if (eventScoped) {
    const paid = { gross: paidOut, fees: 0, refunds: 0, net: paidOut, entries: payouts };
    result.paid_out_balance = bucket(currency, paid, paidOut, recent.filter((entry) => entry.type === 'payout'), payouts > 0);
  }
  return result;
}
