import { matchesFilters, type FilterCondition, type FilterableCheckout } from './checkout-filters.js';
import { productsCountOf, type CheckoutRecord, type CheckoutSortField } from './checkout-model.js';

/**
 * What `GET /v1/checkouts` selects and in which order, as plain functions: the effective sort, and
 * whether one checkout (or one of its list projections) satisfies the search and every condition.
 */

export type SortDirection = 'asc' | 'desc';

/** Effective sort: `createdAt`; newest first unless a field is named (then ascending unless told). */
export function effectiveSort(query: { sortField?: CheckoutSortField | undefined; sortDirection?: SortDirection | undefined }): { field: CheckoutSortField; direction: SortDirection } {
  return {
    field: query.sortField ?? 'createdAt',
    direction: query.sortDirection ?? (query.sortField === undefined ? 'desc' : 'asc'),
  };
}

/** The search text of a request: trimmed and lower-cased; undefined when blank. */
export function searchNeedle(search: string | undefined): string | undefined {
  const needle = search?.trim().toLowerCase();
  return needle ? needle : undefined;
}

/** Case-insensitive substring of the name or the description. */
export function matchesSearch(checkout: { name?: string | undefined; description?: string | undefined }, needle: string | undefined): boolean {
  if (needle === undefined) return true;
  return (checkout.name ?? '').toLowerCase().includes(needle) || (checkout.description ?? '').toLowerCase().includes(needle);
}

/** The filter fields of a checkout. */
export function filterableOf(record: CheckoutRecord): FilterableCheckout {
  return {
    status: record.status,
    visibility: record.visibility,
    ...(record.eventId !== undefined ? { eventId: record.eventId } : {}),
    ...(record.timeslotId !== undefined ? { timeslotId: record.timeslotId } : {}),
    isEventSet: record.eventId !== undefined,
    productsCount: productsCountOf(record),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** True when the checkout satisfies the search and every condition. */
export function isSelected(record: CheckoutRecord, conditions: readonly FilterCondition[], needle: string | undefined): boolean {
  return matchesSearch(record, needle) && matchesFilters(filterableOf(record), conditions);
}
