import { batchGetItems } from '../db/batch-get.js';
import type { CursorScope } from '../db/cursor.js';
import type { PageRequest, PartitionQuery, SortKeyRange } from '../db/query.js';
import { segmentedPage, type Segment, type SegmentedPage } from '../db/segmented-query.js';
import { matchesFilters } from './checkout-filters.js';
import { matchesSearch } from './checkout-listing.js';
import { checkoutListKeys, isOptionalField, numberRangeKeys, type ListEntry } from './checkout-list-model.js';
import type { ListPlan } from './checkout-list-plan.js';
import { LIST_SCAN_BUDGET, checkoutKeys, fromCheckoutItem, type CheckoutSortField, type StoredCheckout } from './checkout-model.js';

/** The reads of `GET /v1/checkouts` (README "Access patterns: checkouts list"). */

/** The key range of a plan's numeric sort range ([lo, hi) on the sort value). */
function sortKeyRange(range: ListPlan['range']): SortKeyRange | undefined {
  if (!range) return undefined;
  const { from, to } = numberRangeKeys(range);
  // Sort keys are `<value>\u0001<id>`: `>= value(lo)` starts at lo, `< value(hi)` (or BETWEEN up to it) stops before hi.
  if (from !== undefined && to !== undefined) return { between: [from, to] };
  if (from !== undefined) return { gte: from };
  if (to !== undefined) return { lt: to };
  return undefined;
}

/**
 * One page of checkout ids from the list projections a plan names: the partitions of its scopes for
 * the sort field (the `value` segment, then for optional fields the `none` segment), merged by key.
 * Conditions the keys do not express are evaluated on the projections, at most LIST_SCAN_BUDGET per request.
 */
export async function listCheckoutIds(
  workspaceId: string, field: CheckoutSortField, ascending: boolean, plan: ListPlan, request: PageRequest, scope: CursorScope,
): Promise<Omit<SegmentedPage, 'items'> & { items: string[] }> {
  const range = sortKeyRange(plan.range);
  const segmentOf = (segment: 'value' | 'none'): Segment => plan.scopes.map((listScope): PartitionQuery => ({
    partition: checkoutListKeys.partition(workspaceId, field, segment, listScope),
    ascending,
    ...(segment === 'value' && range ? { range } : {}),
  }));
  const segments = isOptionalField(field) ? [segmentOf('value'), segmentOf('none')] : [segmentOf('value')];
  const evaluate = plan.residual.length > 0 || plan.search !== undefined;
  const page = await segmentedPage(request, {
    segments,
    ascending,
    budget: LIST_SCAN_BUDGET,
    scope,
    ...(evaluate ? { matches: (item: Record<string, unknown>) => entryMatches(item as unknown as ListEntry, plan) } : {}),
  });
  return { ...page, items: page.items.map((item) => String(item.id)) };
}

function entryMatches(entry: ListEntry, plan: ListPlan): boolean {
  return matchesSearch(entry, plan.search) && matchesFilters({ ...entry, isEventSet: entry.eventId !== undefined }, plan.residual);
}

/** Live checkouts by id (one BatchGet per 100); absent ones are missing from the map. */
export async function getCheckoutsByIds(workspaceId: string, ids: readonly string[]): Promise<Map<string, StoredCheckout>> {
  const items = await batchGetItems([...new Set(ids)].map((id) => checkoutKeys.checkout(workspaceId, id)));
  return new Map(items.map((item) => {
    const stored = fromCheckoutItem(item);
    return [stored.record.id, stored];
  }));
}
