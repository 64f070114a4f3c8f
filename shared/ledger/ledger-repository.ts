import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { queryAll } from '../db/query.js';
import { INDEXES, TABLE_KEYS } from '../db/table-design.js';
import type { Currency } from '../http/routes/invoices.js';
import { RECENT_ORDERS, type BalanceScopeState } from './balance-service.js';
import {
  BALANCE_TOTALS_ENTITY, SETTLEMENT_BUCKET_ENTITY, fromBalanceItems, fromLedgerItem, ledgerKeys, toLedgerItem,
  type LedgerEntry, type SettlementBucket,
} from './ledger-entity.js';
import { TransactionRejectedError, transact, type TransactItem } from './transactions.js';

const ADD_SETTLED = 'ADD settledGross :gross, settledFees :fees, settledRefunds :refunds, settledNet :net, settledEntries :entries, available :net';

function scopesOf(entry: Pick<LedgerEntry, 'eventId'>): (string | undefined)[] {
  return entry.eventId === undefined ? [undefined] : [undefined, entry.eventId];
}

/**
 * The items that book a payment or refund entry, to be sent in the SAME TransactWrite as the invoice
 * change: the entry itself, and per scope (account, event) either the settled totals (money already
 * available) or the pending settlement bucket it matures in. Only ADDs: concurrent bookings commute.
 */
export function ledgerBookingItems(workspaceId: string, entry: LedgerEntry, now: Date): TransactItem[] {
  const items: TransactItem[] = [{
    Put: { TableName: tableName(), Item: toLedgerItem(workspaceId, entry), ConditionExpression: 'attribute_not_exists(PK)' },
  }];
  const sums = { ':gross': entry.gross, ':fees': entry.fees, ':refunds': entry.refundedAmount, ':net': entry.net, ':entries': 1 };
  const pending = Date.parse(entry.availableAt) > now.getTime();
  for (const eventId of scopesOf(entry)) {
    items.push(pending
      ? {
        Update: {
          TableName: tableName(),
          Key: ledgerKeys.bucket(workspaceId, entry.currency, entry.availableAt, eventId),
          UpdateExpression: 'SET #entity = :bucket, availableAt = :availableAt ADD gross :gross, fees :fees, refunds :refunds, net :net, entries :entries',
          ExpressionAttributeNames: { '#entity': TABLE_KEYS.entityType },
          ExpressionAttributeValues: { ...sums, ':bucket': SETTLEMENT_BUCKET_ENTITY, ':availableAt': entry.availableAt },
        },
      }
      : {
        Update: {
          TableName: tableName(),
          Key: ledgerKeys.totals(workspaceId, entry.currency, eventId),
          UpdateExpression: `SET #entity = :totals ${ADD_SETTLED}`,
          ExpressionAttributeNames: { '#entity': TABLE_KEYS.entityType },
          ExpressionAttributeValues: { ...sums, ':totals': BALANCE_TOTALS_ENTITY },
        },
      });
  }
  return items;
}

/**
 * The items of a payout entry: the entry, and per scope a conditional debit of `available`. The
 * condition is on the stored figure, so two concurrent payouts can never both spend the same money.
 */
export function payoutItems(workspaceId: string, entry: LedgerEntry): TransactItem[] {
  const items: TransactItem[] = [{
    Put: { TableName: tableName(), Item: toLedgerItem(workspaceId, entry), ConditionExpression: 'attribute_not_exists(PK)' },
  }];
  for (const eventId of scopesOf(entry)) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: ledgerKeys.totals(workspaceId, entry.currency, eventId),
        UpdateExpression: 'SET available = available - :amount ADD paidOut :amount, payouts :one',
        ConditionExpression: 'available >= :amount',
        ExpressionAttributeValues: { ':amount': entry.paidOut, ':one': 1 },
      },
    });
  }
  return items;
}

/** Sends a payout; false when a scope had less available than the amount (nothing was written). */
export async function bookPayout(workspaceId: string, entry: LedgerEntry): Promise<boolean> {
  try {
    await transact(payoutItems(workspaceId, entry));
    return true;
  } catch (error) {
    if (error instanceof TransactionRejectedError && error.reasons.slice(1).some((_, index) => error.failed(index + 1))) return false;
    throw error;
  }
}

async function readScopeItems(workspaceId: string, currency: Currency, eventId: string | undefined) {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': ledgerKeys.balancePartition(workspaceId, currency, eventId) },
    ConsistentRead: true,
  });
  return fromBalanceItems(items);
}

/**
 * Folds matured buckets into the settled totals: delete the bucket only if nobody added to it since
 * we read it, and add exactly what we read. A lost race just leaves the bucket for the next reader.
 */
async function settleBuckets(workspaceId: string, currency: Currency, eventId: string | undefined, buckets: readonly SettlementBucket[], now: Date): Promise<void> {
  for (const bucket of buckets) {
    if (Date.parse(bucket.availableAt) > now.getTime()) continue;
    try {
      await transact([
        {
          Delete: {
            TableName: tableName(),
            Key: ledgerKeys.bucket(workspaceId, currency, bucket.availableAt, eventId),
            ConditionExpression: 'entries = :entries AND net = :net',
            ExpressionAttributeValues: { ':entries': bucket.entries, ':net': bucket.net },
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: ledgerKeys.totals(workspaceId, currency, eventId),
            UpdateExpression: `SET #entity = :totals ${ADD_SETTLED}`,
            ExpressionAttributeNames: { '#entity': TABLE_KEYS.entityType },
            ExpressionAttributeValues: {
              ':gross': bucket.gross, ':fees': bucket.fees, ':refunds': bucket.refunds, ':net': bucket.net, ':entries': bucket.entries,
              ':totals': BALANCE_TOTALS_ENTITY,
            },
          },
        },
      ]);
    } catch (error) {
      if (!(error instanceof TransactionRejectedError)) throw error;
    }
  }
}

/** Settles what has matured in a scope, so that payouts can spend it. */
export async function settleScope(workspaceId: string, currency: Currency, eventId: string | undefined, now: Date): Promise<void> {
  const { buckets } = await readScopeItems(workspaceId, currency, eventId);
  await settleBuckets(workspaceId, currency, eventId, buckets, now);
}

async function recentEntries(workspaceId: string, currency: Currency, eventId: string | undefined): Promise<LedgerEntry[]> {
  const index = INDEXES.byEventBalance;
  const { Items = [] } = await db.send(new QueryCommand(eventId === undefined
    ? {
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': ledgerKeys.ledgerPartition(workspaceId, currency) },
      ScanIndexForward: false,
      Limit: RECENT_ORDERS,
    }
    : {
      TableName: tableName(),
      IndexName: index.indexName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
      ExpressionAttributeValues: { ':pk': ledgerKeys.eventPartition(workspaceId, eventId), ':prefix': ledgerKeys.eventLedgerPrefix(currency) },
      ScanIndexForward: false,
      Limit: RECENT_ORDERS,
    }));
  return Items.map(fromLedgerItem);
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
  await settleBuckets(workspaceId, currency, eventId, buckets, now);
  return { currency, totals, buckets, recent };
}

/** Every ledger entry of a workspace and currency (audits and tests; not on a request path). */
export async function listLedgerEntries(workspaceId: string, currency: Currency): Promise<LedgerEntry[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': ledgerKeys.ledgerPartition(workspaceId, currency) },
    ConsistentRead: true,
  });
  return items.map(fromLedgerItem);
}
