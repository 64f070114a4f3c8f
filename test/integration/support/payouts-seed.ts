import { transaction } from '../../../shared/db/transaction.js';
import { newId } from '../../../shared/ids.js';
import { toPayoutItems, type Payout } from '../../../shared/ledger/payout-model.js';
import type { Currency } from '../../../shared/model/primitives.js';

export interface SeedPayoutsOptions {
  /** Currency and event of the i-th payout (default USD, no event). */
  of?: (index: number) => { currency?: Currency; eventId?: string };
  /** The clock (default now): payout i is made `count - i` ms before it, so creation order is index order. */
  now?: Date;
}

/**
 * Seeds `count` payouts into a workspace straight through the model (the payout and list items the
 * payout transaction writes, without the ledger or balance checks), for list cost tests and the
 * scaling benchmark. Returns them in creation order.
 */
export async function seedPayouts(workspaceId: string, count: number, options: SeedPayoutsOptions = {}): Promise<Payout[]> {
  const now = options.now ?? new Date();
  const payouts: Payout[] = [];
  for (let index = 0; index < count; index += 1) {
    const createdAt = new Date(now.getTime() - (count - index));
    const { currency = 'USD', eventId } = options.of?.(index) ?? {};
    const id = newId(createdAt);
    const payout: Payout = {
      id, currency, amount: 100 + index, ...(eventId === undefined ? {} : { eventId }), status: 'paid', ledgerEntryId: id, createdAt: createdAt.toISOString(),
    };
    const tx = transaction();
    for (const item of toPayoutItems(workspaceId, payout)) tx.put(item);
    await tx.commit();
    payouts.push(payout);
  }
  return payouts;
}
