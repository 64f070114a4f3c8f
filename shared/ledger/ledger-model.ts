import { creationOrderKey, entityAttribute, entityOf, indexKey, itemKey, partitionOf, withoutKeys, type ItemKey } from '../db/table-design.js';
import type { Currency } from '../model/primitives.js';

export type LedgerEntryType = 'payment' | 'refund' | 'payout';

/**
 * One immutable movement of the host's money. `net` is the signed effect on the balance:
 * payment `gross - fees`, refund `-refundedAmount`, payout `-paidOut`. The balance of a scope always
 * equals the sum of `net` over its entries.
 */
export interface LedgerEntry {
  id: string;
  type: LedgerEntryType;
  currency: Currency;
  gross: number;
  platformFee: number;
  processorFee: number;
  fees: number;
  refundedAmount: number;
  paidOut: number;
  net: number;
  eventId?: string;
  /** Processor charge id of the payment (or the payment id for manual payments). */
  latestCharge?: string;
  invoiceId?: string;
  paymentId?: string;
  refundId?: string;
  payoutId?: string;
  /** When the money leaves `pending`: `paidAt` + settlement delay, rounded up to a settlement step (a minute). */
  availableAt: string;
  createdAt: string;
}

/** Running sums of one balance scope (account or event) and currency: settled money and payouts. */
export interface BalanceTotals {
  settledGross: number;
  settledFees: number;
  settledRefunds: number;
  settledNet: number;
  settledEntries: number;
  paidOut: number;
  payouts: number;
  /** settledNet - paidOut: the only figure payouts are conditioned on. */
  available: number;
}

/** Sums of the entries that become available at one instant. */
export interface SettlementBucket {
  availableAt: string;
  gross: number;
  fees: number;
  refunds: number;
  net: number;
  entries: number;
}

export const LEDGER_ENTRY_ENTITY = 'LedgerEntry';
export const BALANCE_TOTALS_ENTITY = 'BalanceTotals';
export const SETTLEMENT_BUCKET_ENTITY = 'SettlementBucket';
export const SETTLEMENT_STEP_ENTITY = 'SettlementStep';
const TOTALS_SK = 'TOTAL';
const BUCKET_PREFIX = 'PENDING#';

/**
 * Key builders: the only place ledger and balance keys are spelled.
 * - ledger entry: `WS#<ws>#LEDGER#<cur>` / `<id>`, in creation order through `byCreatedAt` (GSI3, same
 *   partition, `<createdAt>#<id>`: the most recent N are one Query); event entries also carry GSI2
 *   (`byEventBalance`) `WS#<ws>#EVENT#<eventId>` / `LEDGER#<cur>#<createdAt>#<id>`.
 * - balance scope (account: `WS#<ws>#BALANCE#<cur>`, event: `WS#<ws>#BALANCE#<cur>#EVENT#<eventId>`)
 *   holds one `TOTAL` item and one `PENDING#<hour end>` item per hour bucket not yet settled, so
 *   reading a balance is one Query whose size is bounded by the settlement delay, not by history.
 * - settlement steps (`<balance partition>#STEPS` / `<availableAt>`): the same money as the buckets, per
 *   step (a minute): only the hour that has begun is read, a Query of at most 60 items, so money is
 *   available within a step of its due time. A step is folded into the totals (and out of its bucket)
 *   once it matures; the steps of a bucket folded whole are never read again and expire (TTL).
 */
export const ledgerKeys = {
  ledgerPartition: (workspaceId: string, currency: Currency) => `WS#${workspaceId}#LEDGER#${currency}`,
  entry: (workspaceId: string, currency: Currency, id: string): ItemKey => itemKey(ledgerKeys.ledgerPartition(workspaceId, currency), id),
  eventPartition: (workspaceId: string, eventId: string) => `WS#${workspaceId}#EVENT#${eventId}`,
  eventLedgerPrefix: (currency: Currency) => `LEDGER#${currency}#`,
  /** An event entry's place in its event's ledger: creation time to the millisecond, then the id. */
  eventLedgerSort: (entry: Pick<LedgerEntry, 'currency' | 'createdAt' | 'id'>) => `${ledgerKeys.eventLedgerPrefix(entry.currency)}${new Date(entry.createdAt).toISOString()}#${entry.id}`,
  balancePartition: (workspaceId: string, currency: Currency, eventId?: string) =>
    eventId === undefined ? `WS#${workspaceId}#BALANCE#${currency}` : `WS#${workspaceId}#BALANCE#${currency}#EVENT#${eventId}`,
  totals: (workspaceId: string, currency: Currency, eventId?: string): ItemKey => itemKey(ledgerKeys.balancePartition(workspaceId, currency, eventId), TOTALS_SK),
  bucket: (workspaceId: string, currency: Currency, availableAt: string, eventId?: string): ItemKey =>
    itemKey(ledgerKeys.balancePartition(workspaceId, currency, eventId), `${BUCKET_PREFIX}${availableAt}`),
  stepPartition: (workspaceId: string, currency: Currency, eventId?: string) => `${ledgerKeys.balancePartition(workspaceId, currency, eventId)}#STEPS`,
  step: (workspaceId: string, currency: Currency, availableAt: string, eventId?: string): ItemKey =>
    itemKey(ledgerKeys.stepPartition(workspaceId, currency, eventId), availableAt),
};

/** An entry's places in the creation order of its account (`byCreatedAt`) and of its event (GSI2). */
export function ledgerOrderAttributes(workspaceId: string, entry: LedgerEntry): Record<string, string> {
  return {
    ...creationOrderKey(ledgerKeys.entry(workspaceId, entry.currency, entry.id), entry.createdAt, entry.id),
    ...(entry.eventId === undefined ? {} : indexKey('byEventBalance', ledgerKeys.eventPartition(workspaceId, entry.eventId), ledgerKeys.eventLedgerSort(entry))),
  };
}

export function toLedgerItem(workspaceId: string, entry: LedgerEntry): Record<string, unknown> {
  return {
    ...ledgerKeys.entry(workspaceId, entry.currency, entry.id),
    ...ledgerOrderAttributes(workspaceId, entry),
    ...entityAttribute(LEDGER_ENTRY_ENTITY),
    ...entry,
  };
}

export function fromLedgerItem(item: Record<string, unknown>): LedgerEntry {
  return withoutKeys(item) as unknown as LedgerEntry;
}

const number = (item: Record<string, unknown>, name: string) => (typeof item[name] === 'number' ? item[name] as number : 0);

/** Splits a balance-scope Query result into its totals and its settlement buckets. */
export function fromBalanceItems(items: readonly Record<string, unknown>[]): { totals: BalanceTotals | undefined; buckets: SettlementBucket[] } {
  let totals: BalanceTotals | undefined;
  const buckets: SettlementBucket[] = [];
  for (const item of items) {
    if (entityOf(item) === BALANCE_TOTALS_ENTITY) {
      totals = {
        settledGross: number(item, 'settledGross'),
        settledFees: number(item, 'settledFees'),
        settledRefunds: number(item, 'settledRefunds'),
        settledNet: number(item, 'settledNet'),
        settledEntries: number(item, 'settledEntries'),
        paidOut: number(item, 'paidOut'),
        payouts: number(item, 'payouts'),
        available: number(item, 'available'),
      };
    } else if (entityOf(item) === SETTLEMENT_BUCKET_ENTITY) {
      buckets.push(settlementSumsOf(item));
    }
  }
  return { totals, buckets };
}

/** A settlement bucket or step item as its sums. */
export function settlementSumsOf(item: Record<string, unknown>): SettlementBucket {
  return {
    availableAt: item.availableAt as string,
    gross: number(item, 'gross'),
    fees: number(item, 'fees'),
    refunds: number(item, 'refunds'),
    net: number(item, 'net'),
    entries: number(item, 'entries'),
  };
}

/** The workspace of a stored ledger entry (`WS#<ws>#LEDGER#<currency>`), for backfills. */
export function workspaceOfLedgerItem(item: Record<string, unknown>): string {
  const match = /^WS#(.+)#LEDGER#[A-Z]{3}$/.exec(partitionOf(item));
  if (!match?.[1]) throw new Error('Not a ledger entry item.');
  return match[1];
}
