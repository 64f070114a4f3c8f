import type { ListCheckoutsQuery } from '../http/routes/checkouts.js';
import type { CheckoutRecord } from './checkout-entity.js';
import { matchesFilters, type FilterCondition } from './checkout-filters.js';

/**
 * In-memory selection for `GET /v1/checkouts`: the repository hands over the workspace's live
 * checkouts, these pure functions filter, search, sort and cut the page.
 */

export type SortField = NonNullable<ListCheckoutsQuery['sortField']>;
export type SortDirection = 'asc' | 'desc';

/** Display names that sorting by `event`/`form` needs, keyed by event or form id. */
export interface DisplayNames {
  events: ReadonlyMap<string, string>;
  forms: ReadonlyMap<string, string>;
}

export interface Selection {
  search?: string;
  status?: 'open' | 'closed';
  eventId?: string;
  timeslotId?: string;
  filters?: readonly FilterCondition[];
}

/** Number of product entries (dependents are add-ons of a product, not counted separately). */
export function productsCountOf(record: Pick<CheckoutRecord, 'products'>): number {
  return record.products.length;
}

/** True when the checkout satisfies the search, the simple filters and every `filters` condition. */
export function isSelected(record: CheckoutRecord, selection: Selection): boolean {
  if (selection.status !== undefined && record.status !== selection.status) return false;
  if (selection.eventId !== undefined && record.eventId !== selection.eventId) return false;
  if (selection.timeslotId !== undefined && record.timeslotId !== selection.timeslotId) return false;
  const needle = selection.search?.trim().toLowerCase();
  if (needle && !record.name.toLowerCase().includes(needle) && !(record.description ?? '').toLowerCase().includes(needle)) return false;
  if (selection.filters && selection.filters.length > 0) {
    const filterable = { ...record, isEventSet: record.eventId !== undefined, productsCount: productsCountOf(record) };
    if (!matchesFilters(filterable, selection.filters)) return false;
  }
  return true;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function sortValue(record: CheckoutRecord, field: SortField, names: DisplayNames): string | number | undefined {
  switch (field) {
    case '_id': return record.id;
    case 'productsCount': return productsCountOf(record);
    case 'createdAt':
    case 'updatedAt': return Date.parse(record[field]);
    case 'event': return record.eventId === undefined ? undefined : names.events.get(record.eventId);
    case 'form': return record.orderFormId === undefined ? undefined : names.forms.get(record.orderFormId);
    default: return record[field];
  }
}

/** Code-point order: what fixed-width hex ids need (`…1199` before `…119a`). */
function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Numbers numerically; display names in natural order ("Event 2" before "Event 10"); ids by code point. */
function compareValues(a: string | number, b: string | number, field: SortField): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (field === '_id') return compareCodePoints(String(a), String(b));
  return collator.compare(String(a), String(b));
}

/**
 * Sorts a copy. Checkouts without a value (no description, no event...) go last in both directions;
 * ties break on id in the same direction, so paging is stable.
 */
export function sortCheckouts(records: readonly CheckoutRecord[], field: SortField, direction: SortDirection, names: DisplayNames): CheckoutRecord[] {
  const sign = direction === 'asc' ? 1 : -1;
  const keyed = records.map((record) => ({ record, value: sortValue(record, field, names) }));
  keyed.sort((a, b) => {
    if (a.value === undefined && b.value !== undefined) return 1;
    if (b.value === undefined && a.value !== undefined) return -1;
    const byValue = a.value === undefined || b.value === undefined ? 0 : compareValues(a.value, b.value, field);
    if (byValue !== 0) return sign * byValue;
    return sign * compareCodePoints(a.record.id, b.record.id);
  });
  return keyed.map((entry) => entry.record);
}

/** Effective sort: `createdAt`; newest first unless a field is named (then ascending unless told). */
export function effectiveSort(query: Pick<ListCheckoutsQuery, 'sortField' | 'sortDirection'>): { field: SortField; direction: SortDirection } {
  return {
    field: query.sortField ?? 'createdAt',
    direction: query.sortDirection ?? (query.sortField === undefined ? 'desc' : 'asc'),
  };
}

/** The page `pageNumber` of `pageSize` items and whether more follow. */
export function pageOf<T>(items: readonly T[], pageNumber: number, pageSize: number): { items: T[]; hasMore: boolean } {
  const start = pageNumber * pageSize;
  return { items: items.slice(start, start + pageSize), hasMore: items.length > start + pageSize };
}
