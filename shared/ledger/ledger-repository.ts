import { getItem } from '../db/conditional.js';
import { queryAll, queryFirst } from '../db/query.js';
import { ValidationError } from '../errors.js';
import { entityNames, notExists, TABLE_KEYS, type ItemKey } from '../db/table-design.js';
import { transaction, type Transaction } from '../db/transaction.js';
import type { Currency } from '../model/primitives.js';
import { RECENT_ORDERS, type BalanceScopeState } from './balance-service.js';
import { payoutOfEntry, toPayoutItems } from './payout-model.js';
import {
  BALANCE_TOTALS_ENTITY, SETTLEMENT_BUCKET_ENTITY, SETTLEMENT_STEP_ENTITY, fromBalanceItems, fromLedgerItem, settlementSumsOf, ledgerKeys, toLedgerItem,
  type LedgerEntry, type SettlementBucket,
} from './ledger-model.js';
import { bucketEndOf, bucketStartOf } from './settlement.js';

/** Which balance a refused payout lacked: the account's, or the event's it was scoped to. */
export type ShortBalance = 'account' | 'event';

/** A scope's available money is below the payout amount (nothing was written). */
class InsufficientFundsError extends Error {
  constructor(readonly short: ShortBalance) {
    super(`The ${short} balance is below the payout amount.`);
  }
}

const SETTLED_SUMS = 'settledGross :gross, settledFees :fees, settledRefunds :refunds, settledNet :net, settledEntries :entries, available :net';
const ADD_SETTLED = `ADD ${SETTLED_SUMS}`;
const ADD_PENDING = 'ADD gross :gross, fees :fees, refunds :refunds, net :net, entries :entries';

/**
 * The most gross one workspace may book in one currency, pending and settled together. Every figure
 * of a balance is bounded by its gross (fees, refunds and payouts never exceed it), so below this
 * bound each stays an exact JSON number (the spec bounds integers by +/-9007199254740991). Counted by
 * `bookedGross` on the account's totals item, from the first booking that carries it.
 */
export const MAX_BOOKED_GROSS = Number.MAX_SAFE_INTEGER;

function bookedGrossRefusal(currency: Currency): ValidationError {
  return new ValidationError({
    path: 'amount',
    message: `would take the workspace's payments in ${currency} past ${MAX_BOOKED_GROSS} minor units in all, the largest amount its balance can show exactly`,
  });
}

/**
 * The update of the account's totals item that adds the entry's gross to `bookedGross`, under the
 * condition that keeps it within MAX_BOOKED_GROSS; with `settled`, the entry's settled sums too.
 */
function countedOnAccount(workspaceId: string, entry: LedgerEntry, settled?: Record<string, number>) {
  return {
    key: ledgerKeys.totals(workspaceId, entry.currency),
    update: `SET #entity = :totals ADD ${settled ? `${SETTLED_SUMS}, ` : ''}bookedGross :gross`,
    names: entityNames(),
    values: { ...settled, ':gross': entry.gross, ':totals': BALANCE_TOTALS_ENTITY, ':room': MAX_BOOKED_GROSS - entry.gross },
    condition: { expression: 'attribute_not_exists(bookedGross) OR bookedGross <= :room', onFailed: () => bookedGrossRefusal(entry.currency) },
  };
}

/**
 * Before money moves (a card charge): 422 when booking `gross` more would take the workspace past
 * MAX_BOOKED_GROSS. The booking's own condition still decides; this only keeps a charge from
 * succeeding that could then not be recorded.
 */
export async function assertBookingRoom(workspaceId: string, currency: Currency, gross: number): Promise<void> {
  const totals = await getItem(ledgerKeys.totals(workspaceId, currency), { consistent: true, attributes: ['bookedGross'] });
  const booked = typeof totals?.bookedGross === 'number' ? totals.bookedGross : 0;
  if (gross > MAX_BOOKED_GROSS - booked) throw bookedGrossRefusal(currency);
}
/** How long a settlement step outlives its bucket's end (then DynamoDB's TTL removes it). */
const STEP_TTL_SECONDS = 86_400;

function scopesOf(entry: Pick<LedgerEntry, 'eventId'>): (string | undefined)[] {
  return entry.eventId === undefined ? [undefined] : [undefined, entry.eventId];
}

/**
 * The writes that book a payment or refund entry, to be included in the SAME transaction as the
 * invoice change: the entry itself, and per scope (account, event) either the settled totals (money
 * already available) or the pending settlement bucket it matures in. Only ADDs: concurrent bookings commute.
 */
export function ledgerBookings(workspaceId: string, entry: LedgerEntry, now: Date): Transaction {
  const tx = transaction().put(toLedgerItem(workspaceId, entry), notExists());
  const sums = { ':gross': entry.gross, ':fees': entry.fees, ':refunds': entry.refundedAmount, ':net': entry.net, ':entries': 1 };
  const pending = Date.parse(entry.availableAt) > now.getTime();
  const names = entityNames();
  // Gross counts towards the account's bookedGross, whether it is pending or settled.
  const counted = entry.gross > 0;
  if (pending && counted) tx.update(countedOnAccount(workspaceId, entry));
  for (const eventId of scopesOf(entry)) {
    if (pending) {
      // The hour bucket (what the balance reads) and the step within it (what its current hour reads).
      const bucketEnd = bucketEndOf(entry.availableAt);
      tx.update({
        key: ledgerKeys.bucket(workspaceId, entry.currency, bucketEnd, eventId),
        update: `SET #entity = :bucket, availableAt = :availableAt ${ADD_PENDING}`,
        names,
        values: { ...sums, ':bucket': SETTLEMENT_BUCKET_ENTITY, ':availableAt': bucketEnd },
      });
      tx.update({
        key: ledgerKeys.step(workspaceId, entry.currency, entry.availableAt, eventId),
        update: `SET #entity = :step, availableAt = :availableAt, #ttl = :expires ${ADD_PENDING}`,
        names: { ...names, '#ttl': TABLE_KEYS.ttl },
        // Unread once its bucket is folded whole: gone a day after the bucket's end.
        values: { ...sums, ':step': SETTLEMENT_STEP_ENTITY, ':availableAt': entry.availableAt, ':expires': Math.ceil(Date.parse(bucketEnd) / 1000) + STEP_TTL_SECONDS },
      });
    } else if (eventId === undefined && counted) {
      tx.update(countedOnAccount(workspaceId, entry, sums));
    } else {
      tx.update({
        key: ledgerKeys.totals(workspaceId, entry.currency, eventId),
        update: `SET #entity = :totals ${ADD_SETTLED}`,
        names,
        values: { ...sums, ':totals': BALANCE_TOTALS_ENTITY },
      });
    }
  }
  return tx;
}

/**
 * The writes of a payout entry: the entry, the payout and its list entries (what `GET /v1/payouts`
 * reads), and per scope a conditional debit of `available`. The condition is on the stored figure,
 * so two concurrent payouts can never both spend the same money; the payout is listed exactly when
 * its money moved.
 */
export function payoutBookings(workspaceId: string, entry: LedgerEntry): Transaction {
  const tx = transaction().put(toLedgerItem(workspaceId, entry), notExists());
  for (const item of toPayoutItems(workspaceId, payoutOfEntry(entry))) tx.put(item, notExists());
  for (const eventId of scopesOf(entry)) {
    tx.update({
      key: ledgerKeys.totals(workspaceId, entry.currency, eventId),
      update: 'SET available = available - :amount ADD paidOut :amount, payouts :one',
      values: { ':amount': entry.paidOut, ':one': 1 },
      condition: { expression: 'available >= :amount', onFailed: () => new InsufficientFundsError(eventId === undefined ? 'account' : 'event') },
    });
  }
  return tx;
}

/**
 * Sends a payout with `effects` (its webhook event) in the same transaction. Undefined when booked;
 * else the balance that had less available than the amount (the account's first), and nothing was written.
 */
export async function bookPayout(workspaceId: string, entry: LedgerEntry, effects?: Transaction): Promise<ShortBalance | undefined> {
  try {
    const tx = payoutBookings(workspaceId, entry);
    if (effects) tx.include(effects);
    await tx.commit();
    return undefined;
  } catch (error) {
    if (error instanceof InsufficientFundsError) return error.short;
    throw error;
  }
}

/** A scope's aggregates. Strong: payouts and settlement decide on them. Bounded by the settlement delay. */
export async function readScopeItems(workspaceId: string, currency: Currency, eventId: string | undefined) {
  const items = await queryAll({ partition: ledgerKeys.balancePartition(workspaceId, currency, eventId), consistent: true });
  return fromBalanceItems(items);
}

/** A bucket changed since it was read: leave it for the next reader. */
class BucketMovedError extends Error {}

/** The bucket whose hour has begun but not ended at `now` (at most one). */
function currentBucket(buckets: readonly SettlementBucket[], now: Date): SettlementBucket | undefined {
  return buckets.find((bucket) => Date.parse(bucket.availableAt) > now.getTime() && Date.parse(bucketStartOf(bucket.availableAt)) <= now.getTime());
}

/**
 * The matured steps of the bucket whose hour has begun: one consistent Query of at most an hour of
 * steps, from the hour's start to `now` (none when no bucket is in its hour).
 */
export async function readMaturedSteps(workspaceId: string, currency: Currency, eventId: string | undefined, buckets: readonly SettlementBucket[], now: Date): Promise<SettlementBucket[]> {
  const current = currentBucket(buckets, now);
  if (!current) return [];
  const items = await queryAll({
    partition: ledgerKeys.stepPartition(workspaceId, currency, eventId),
    range: { between: [bucketStartOf(current.availableAt), now.toISOString()] },
    consistent: true,
  });
  // `between` includes the hour's start, which belongs to the previous bucket.
  return items.map(settlementSumsOf).filter((step) => bucketEndOf(step.availableAt) === current.availableAt);
}

/** The sums of a bucket or step as the values of an update. */
function sumValues(sums: SettlementBucket, sign = 1): Record<string, number> {
  return { ':gross': sign * sums.gross, ':fees': sign * sums.fees, ':refunds': sign * sums.refunds, ':net': sign * sums.net, ':entries': sign * sums.entries };
}

/**
 * Moves what a reader saw in a bucket or step (`read`) into the settled totals: deletes it only if
 * nobody added to it since, adds exactly that to the totals, and, for a step, takes it out of its
 * bucket too (which must still exist: a bucket folded whole already carried the step). A lost race
 * just leaves it for the next reader.
 */
async function foldIntoTotals(scope: { workspaceId: string; currency: Currency; eventId: string | undefined }, key: ItemKey, read: SettlementBucket, bucketOfStep?: ItemKey): Promise<void> {
  const { workspaceId, currency, eventId } = scope;
  const tx = transaction().delete(key, {
    expression: 'entries = :entries AND net = :net',
    values: { ':entries': read.entries, ':net': read.net },
    onFailed: () => new BucketMovedError(),
  });
  if (bucketOfStep) {
    tx.update({ key: bucketOfStep, update: ADD_PENDING, values: sumValues(read, -1), condition: { expression: 'attribute_exists(availableAt)', onFailed: () => new BucketMovedError() } });
  }
  tx.update({ key: ledgerKeys.totals(workspaceId, currency, eventId), update: `SET #entity = :totals ${ADD_SETTLED}`, names: entityNames(), values: { ...sumValues(read), ':totals': BALANCE_TOTALS_ENTITY } });
  try {
    await tx.commit();
  } catch (error) {
    if (!(error instanceof BucketMovedError)) throw error;
  }
}

/**
 * Folds the matured steps of the bucket in its hour, then the matured buckets, into the settled
 * totals (`foldIntoTotals`); a step and its bucket are never both folded.
 */
async function settleBuckets(workspaceId: string, currency: Currency, eventId: string | undefined, buckets: readonly SettlementBucket[], steps: readonly SettlementBucket[], now: Date): Promise<void> {
  const scope = { workspaceId, currency, eventId };
  for (const step of steps) {
    await foldIntoTotals(scope, ledgerKeys.step(workspaceId, currency, step.availableAt, eventId), step, ledgerKeys.bucket(workspaceId, currency, bucketEndOf(step.availableAt), eventId));
  }
  for (const bucket of buckets) {
    if (Date.parse(bucket.availableAt) <= now.getTime()) await foldIntoTotals(scope, ledgerKeys.bucket(workspaceId, currency, bucket.availableAt, eventId), bucket);
  }
}

/** Settles what has matured in a scope, so that payouts can spend it. */
export async function settleScope(workspaceId: string, currency: Currency, eventId: string | undefined, now: Date): Promise<void> {
  const { buckets } = await readScopeItems(workspaceId, currency, eventId);
  await settleBuckets(workspaceId, currency, eventId, buckets, await readMaturedSteps(workspaceId, currency, eventId, buckets, now), now);
}

async function recentEntries(workspaceId: string, currency: Currency, eventId: string | undefined): Promise<LedgerEntry[]> {
  const items = await queryFirst(eventId === undefined
    ? { index: 'byCreatedAt' as const, partition: ledgerKeys.ledgerPartition(workspaceId, currency), ascending: false }
    : { index: 'byEventBalance', partition: ledgerKeys.eventPartition(workspaceId, eventId), range: { beginsWith: ledgerKeys.eventLedgerPrefix(currency) }, ascending: false },
  RECENT_ORDERS);
  return items.map(fromLedgerItem);
}

/**
 * One scope's balance state: one consistent Query of its aggregates (bounded by the settlement delay)
 * and one Query of its 10 most recent entries. Matured buckets are settled on the way (best effort).
 */
export async function readBalanceScope(workspaceId: string, currency: Currency, eventId: string | undefined, now: Date): Promise<BalanceScopeState> {
  const [{ totals, buckets }, recent] = await Promise.all([
    readScopeItems(workspaceId, currency, eventId),
    recentEntries(workspaceId, currency, eventId),
  ]);
  const maturedSteps = await readMaturedSteps(workspaceId, currency, eventId, buckets, now);
  await settleBuckets(workspaceId, currency, eventId, buckets, maturedSteps, now);
  return { currency, totals, buckets, maturedSteps, recent };
}

/** Every ledger entry of a workspace and currency (audits and tests; not on a request path). */
export async function listLedgerEntries(workspaceId: string, currency: Currency): Promise<LedgerEntry[]> {
  const items = await queryAll({ partition: ledgerKeys.ledgerPartition(workspaceId, currency), consistent: true });
  return items.map(fromLedgerItem);
}
