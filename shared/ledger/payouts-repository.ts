import { getItem } from '../db/conditional.js';
import { queryPage, type Page, type PageRequest } from '../db/query.js';
import { fromPayoutItem, payoutKeys, type Payout, type PayoutListFilter } from './payout-model.js';

/**
 * One page of the workspace's payouts in creation order (newest first by default). Every filter
 * combination is its own partition of full payout copies (written with the payout), so a page is ONE
 * Query of `limit + 1` items whatever the workspace holds, and nothing is filtered out after reading.
 */
export async function listPayouts(workspaceId: string, filter: PayoutListFilter, request: PageRequest): Promise<Page<Payout>> {
  const scope = { owner: workspaceId, list: 'payouts', shape: { ...filter } };
  const query = { partition: payoutKeys.listPartition(workspaceId, filter), ascending: filter.direction === 'asc' };
  const page = await queryPage(query, request, scope);
  return { ...page, items: page.items.map(fromPayoutItem) };
}

/** One payout (eventually consistent: payouts never change). */
export async function getPayout(workspaceId: string, id: string): Promise<Payout | undefined> {
  const item = await getItem(payoutKeys.payout(workspaceId, id));
  return item ? fromPayoutItem(item) : undefined;
}
