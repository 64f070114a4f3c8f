import type { BackfillStep } from '../db/backfill.js';
import { transaction } from '../db/transaction.js';
import { LEDGER_ENTRY_ENTITY, fromLedgerItem, workspaceOfLedgerItem } from './ledger-model.js';
import { payoutOfEntry, toPayoutItems } from './payout-model.js';

/**
 * The payout item and its list entries for payouts made before `GET /v1/payouts` existed: a payout
 * was then only its ledger entry, which holds every figure of it. Ledger entries never change, so
 * the puts need no version check; they rewrite the same values, so a second run changes nothing.
 */
export const payoutItemsBackfill: BackfillStep = {
  name: 'payouts and their list entries (currency, event, both)',
  entity: LEDGER_ENTRY_ENTITY,
  async rebuild(item) {
    const entry = fromLedgerItem(item);
    if (entry.type !== 'payout') return 0;
    const items = toPayoutItems(workspaceOfLedgerItem(item), payoutOfEntry(entry));
    const tx = transaction();
    for (const payoutItem of items) tx.put(payoutItem);
    await tx.commit();
    return items.length;
  },
};
