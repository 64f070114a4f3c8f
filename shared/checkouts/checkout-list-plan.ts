import type { FilterCondition } from './checkout-filters.js';
import { ALL_CELLS, type ListScope } from './checkout-list-model.js';
import {
  CHECKOUT_STATUSES, CHECKOUT_VISIBILITIES, type CheckoutSortField, type CheckoutStatus, type CheckoutVisibility,
} from './checkout-model.js';

/**
 * How `GET /v1/checkouts` reads a page (README "Data model", checkouts): which scope partitions hold
 * the candidates, which conditions the keys already guarantee, and which are left to evaluate on
 * the projections read. Pure: unit-tested without DynamoDB.
 *
 * 1. `search` is evaluated on the ALL scope's projections (the only ones carrying name and
 *    description); every other condition is then evaluated too.
 * 2. Otherwise an `eventId` condition (`eq`, or `in` with at most 8 values) reads those events'
 *    partitions; else a `timeslotId` one its timeslots'; else the conditions on status, visibility and
 *    isEventSet (any of `eq`, `ne`, `in`) select the cells that satisfy them all, merged (none: an
 *    empty answer without a read; all 8: the ALL scope).
 * 3. `gt`/`gte`/`lt`/`lte`/`eq` on the sort field itself (createdAt, updatedAt, productsCount) become
 *    a key range.
 * What is left is evaluated on the projections, at most `LIST_SCAN_BUDGET` per request.
 */

/** At most this many event or timeslot partitions are merged for an `in` condition. */
export const MAX_MERGED_VALUES = 8;

export interface ListSelection {
  sortField: CheckoutSortField;
  ascending: boolean;
  search?: string | undefined;
  /** Every condition of the request: `filters`, plus the `status`, `eventId` and `timeslotId` parameters. */
  conditions: readonly FilterCondition[];
}

export interface ListPlan {
  /** Scope partitions merged by sort key; empty when no checkout can match. */
  scopes: ListScope[];
  /** A key range on the sort field's numeric value: lo inclusive, hi exclusive. */
  range?: { lo?: number; hi?: number };
  /** Conditions the keys do not guarantee, evaluated on each projection read. */
  residual: FilterCondition[];
  /** Lower-cased search needle, evaluated on each projection read. */
  search?: string;
}

const NUMERIC_SORTS: ReadonlySet<CheckoutSortField> = new Set(['createdAt', 'updatedAt', 'productsCount']);

/** The conditions of a request: the `filters` array and the plain parameters, which mean `eq`. */
export function conditionsOf(query: { status?: CheckoutStatus | undefined; eventId?: string | undefined; timeslotId?: string | undefined; filters?: readonly FilterCondition[] | undefined }): FilterCondition[] {
  return [
    ...(query.filters ?? []),
    ...(query.status !== undefined ? [{ field: 'status', op: 'eq', value: query.status } as FilterCondition] : []),
    ...(query.eventId !== undefined ? [{ field: 'eventId', op: 'eq', value: query.eventId } as FilterCondition] : []),
    ...(query.timeslotId !== undefined ? [{ field: 'timeslotId', op: 'eq', value: query.timeslotId } as FilterCondition] : []),
  ];
}

/** The values of an `eq` or small `in` condition on an open-domain field (event or timeslot id). */
function keyValues(condition: FilterCondition): string[] | undefined {
  if (condition.op === 'eq') return [String(condition.value)];
  if (condition.op === 'in' && Array.isArray(condition.value) && condition.value.length <= MAX_MERGED_VALUES) return [...new Set(condition.value.map(String))];
  return undefined;
}

/** The values of a small-domain field that satisfy every condition on it. */
function allowed<T>(domain: readonly T[], conditions: readonly FilterCondition[]): T[] {
  return domain.filter((value) => conditions.every((condition) => {
    if (condition.op === 'eq') return condition.value === value;
    if (condition.op === 'ne') return condition.value !== value;
    if (condition.op === 'in') return (condition.value as unknown[]).includes(value);
    return true;
  }));
}

/** [lo, hi) from the range conditions on a numeric field; undefined bounds are open. */
function intervalOf(conditions: readonly FilterCondition[]): { lo?: number; hi?: number } {
  let lo: number | undefined;
  let hi: number | undefined;
  const raise = (value: number) => { lo = lo === undefined ? value : Math.max(lo, value); };
  const lower = (value: number) => { hi = hi === undefined ? value : Math.min(hi, value); };
  for (const condition of conditions) {
    const value = condition.value as number;
    if (condition.op === 'gt') raise(value + 1);
    if (condition.op === 'gte') raise(value);
    if (condition.op === 'lt') lower(value);
    if (condition.op === 'lte') lower(value + 1);
    if (condition.op === 'eq') { raise(value); lower(value + 1); }
  }
  return { ...(lo !== undefined ? { lo } : {}), ...(hi !== undefined ? { hi } : {}) };
}

const isRangeOp = (condition: FilterCondition) => ['gt', 'gte', 'lt', 'lte', 'eq'].includes(condition.op);

export function planCheckoutList(selection: ListSelection): ListPlan {
  const { sortField, conditions } = selection;
  const consumed = new Set<FilterCondition>();
  // 3. The sort field's own range.
  let range: ListPlan['range'];
  if (NUMERIC_SORTS.has(sortField)) {
    const onSort = conditions.filter((condition) => condition.field === sortField && isRangeOp(condition));
    if (onSort.length > 0) {
      range = intervalOf(onSort);
      onSort.forEach((condition) => consumed.add(condition));
      if (range.lo !== undefined && range.hi !== undefined && range.lo >= range.hi) return { scopes: [], residual: [] };
      if (range.hi !== undefined && range.hi <= 0) return { scopes: [], residual: [] };
      if (range.lo !== undefined && range.lo <= 0) delete range.lo;
    }
  }
  const needle = selection.search?.trim().toLowerCase();
  let scopes: ListScope[];
  if (needle) {
    scopes = [{ kind: 'all' }];
  } else {
    scopes = scopesFor(conditions, consumed);
  }
  const residual = conditions.filter((condition) => !consumed.has(condition));
  return { scopes, ...(range && (range.lo !== undefined || range.hi !== undefined) ? { range } : {}), residual, ...(needle ? { search: needle } : {}) };
}

function scopesFor(conditions: readonly FilterCondition[], consumed: Set<FilterCondition>): ListScope[] {
  for (const field of ['eventId', 'timeslotId'] as const) {
    for (const condition of conditions) {
      if (condition.field !== field) continue;
      const values = keyValues(condition);
      if (!values) continue;
      consumed.add(condition);
      return values.map((value) => (field === 'eventId' ? { kind: 'event' as const, eventId: value } : { kind: 'slot' as const, timeslotId: value }));
    }
  }
  const on = (field: FilterCondition['field']) => conditions.filter((condition) => condition.field === field);
  const statuses = allowed<CheckoutStatus>(CHECKOUT_STATUSES, on('status'));
  const visibilities = allowed<CheckoutVisibility>(CHECKOUT_VISIBILITIES, on('visibility'));
  const eventSet = allowed<boolean>([true, false], on('isEventSet'));
  [...on('status'), ...on('visibility'), ...on('isEventSet')].forEach((condition) => consumed.add(condition));
  const cells = ALL_CELLS.filter((cell) => statuses.includes(cell.status) && visibilities.includes(cell.visibility) && eventSet.includes(cell.eventSet));
  return cells.length === ALL_CELLS.length ? [{ kind: 'all' }] : cells;
}
