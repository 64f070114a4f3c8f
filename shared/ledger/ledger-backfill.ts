import { addIndexAttributes, type BackfillStep } from '../db/backfill.js';
import { LEDGER_ENTRY_ENTITY, fromLedgerItem, ledgerOrderAttributes, workspaceOfLedgerItem } from './ledger-model.js';

/**
 * Ledger entries written before the balance's recent activity was read in creation order: the entry
 * gets its place in the creation order (`byCreatedAt`) and, for an event's entry, its event sort key
 * `LEDGER#<cur>#<createdAt>#<id>` (it was `LEDGER#<cur>#<id>`). Index attributes only, from fields
 * that never change; a second run writes nothing.
 */
export const ledgerOrderBackfill: BackfillStep = {
  name: 'ledger entries in creation order (account and event recent activity)',
  entity: LEDGER_ENTRY_ENTITY,
  rebuild: (item) => addIndexAttributes(item, ledgerOrderAttributes(workspaceOfLedgerItem(item), fromLedgerItem(item))),
};
