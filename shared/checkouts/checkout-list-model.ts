import { entityAttribute, itemKey, type ItemKey } from '../db/table-design.js';
import {
  CHECKOUT_SORT_FIELDS, CHECKOUT_STATUSES, CHECKOUT_VISIBILITIES, productsCountOf,
  type CheckoutRecord, type CheckoutSortField, type CheckoutStatus, type CheckoutVisibility, type ListNames,
} from './checkout-model.js';

/**
 * The checkouts list's projections (README "Data model", checkouts rows): every sort order of
 * `GET /v1/checkouts` is a key order, kept per *scope*, so that a page is a Query of the page's items:
 *
 * - partition `WS#<ws>#CHECKOUTS#LIST#<sortField>#<V|N>#<scope>`, sort key `<sort value>\u0001<id>`;
 *   `V` holds the checkouts that have a value for the sort field, `N` those that have none
 *   (description, event, form), which follow the others in both directions.
 * - scopes: `ALL` (every checkout); `CELL#<status>#<visibility>#<E|X>` (one per combination of the
 *   three small-domain filter fields, E = an event is set), so that any condition on status,
 *   visibility and isEventSet is a merge of at most 8 partitions; `EVENT#<eventId>`;
 *   `SLOT#<timeslotId>`.
 * - the sort value is encoded so that its byte order is the sort's order: numbers and timestamps as
 *   15 zero-padded digits (ranges on them become key ranges), text case- and accent-insensitively
 *   with numbers by value ("Event 9" before "Event 10").
 *
 * Each projection carries the filter fields (and in the ALL scope name and description, for search),
 * so conditions the keys cannot express are evaluated on the projection without reading the checkout.
 * All of them are written in the checkout's own transactions. A checkout has at most
 * 10 sort fields x 4 scopes + 1 projections; `byForm` lets a form rename find its checkouts.
 */

export const CHECKOUT_LIST_ENTRY_ENTITY = 'CheckoutListEntry';
export const CHECKOUT_BY_FORM_ENTITY = 'CheckoutByForm';

/** Sort fields a checkout may have no value for: those checkouts come last in both directions. */
const OPTIONAL_FIELDS: readonly CheckoutSortField[] = ['description', 'event', 'form'];

export type ListScope =
  | { kind: 'all' }
  | { kind: 'cell'; status: CheckoutStatus; visibility: CheckoutVisibility; eventSet: boolean }
  | { kind: 'event'; eventId: string }
  | { kind: 'slot'; timeslotId: string };

export type ListSegment = 'value' | 'none';

/** Every cell, in a fixed order. */
export const ALL_CELLS: readonly Extract<ListScope, { kind: 'cell' }>[] = CHECKOUT_STATUSES.flatMap((status) =>
  CHECKOUT_VISIBILITIES.flatMap((visibility) => [true, false].map((eventSet) => ({ kind: 'cell' as const, status, visibility, eventSet }))));

function scopePart(scope: ListScope): string {
  switch (scope.kind) {
    case 'all': return 'ALL';
    case 'cell': return `CELL#${scope.status}#${scope.visibility}#${scope.eventSet ? 'E' : 'X'}`;
    case 'event': return `EVENT#${scope.eventId}`;
    case 'slot': return `SLOT#${scope.timeslotId}`;
  }
}

/** Separates the encoded value from the id: below every character an encoded value contains. */
const SEPARATOR = '\u0001';
const NUMBER_WIDTH = 15;
const MAX_NUMBER = 10 ** NUMBER_WIDTH - 1;
/** Text sort values keep their first 200 characters (a sort key holds at most 1 KB). */
const MAX_TEXT = 200;

/** A non-negative integer as fixed-width digits, clamped into 0..10^15-1. */
export function encodeNumber(value: number): string {
  return String(Math.min(MAX_NUMBER, Math.max(0, Math.trunc(value)))).padStart(NUMBER_WIDTH, '0');
}

/**
 * Text in an order a person expects: case and accents ignored, whitespace runs as one space, runs of
 * digits by their value (each run is written as its length, two digits, then the digits without
 * leading zeros: "9" -> "019", "10" -> "0210"). Cut to its first 200 characters.
 */
export function encodeText(value: string): string {
  const folded = value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
    .replace(/[\p{Cc}\p{Z}\s]+/gu, ' ').trim();
  const natural = folded.replace(/\d+/g, (run) => {
    const digits = (run.replace(/^0+/, '') || '0').slice(0, 99);
    return String(digits.length).padStart(2, '0') + digits;
  });
  return Array.from(natural).slice(0, MAX_TEXT).join('');
}

/** The sort value of a checkout for a field, or undefined when it has none. */
export function sortValueOf(record: CheckoutRecord, field: CheckoutSortField, names: ListNames): string | undefined {
  switch (field) {
    case 'name': return encodeText(record.name);
    case 'description': return record.description === undefined ? undefined : encodeText(record.description);
    case 'createdAt':
    case 'updatedAt': return encodeNumber(Date.parse(record[field]));
    case 'status': return record.status;
    case 'visibility': return record.visibility;
    case 'productsCount': return encodeNumber(productsCountOf(record));
    case '_id': return '';
    case 'event': return record.eventId === undefined || names.event === undefined ? undefined : encodeText(names.event);
    case 'form': return record.orderFormId === undefined || names.form === undefined ? undefined : encodeText(names.form);
  }
}

export function isOptionalField(field: CheckoutSortField): boolean {
  return OPTIONAL_FIELDS.includes(field);
}

export const checkoutListKeys = {
  partition: (workspaceId: string, field: CheckoutSortField, segment: ListSegment, scope: ListScope) =>
    `WS#${workspaceId}#CHECKOUTS#LIST#${field}#${segment === 'value' ? 'V' : 'N'}#${scopePart(scope)}`,
  /** The sort key of a checkout whose encoded sort value is `value` ('' in the `N` segment). */
  sortKey: (value: string, checkoutId: string) => `${value}${SEPARATOR}${checkoutId}`,
  /** A form's checkouts, keyed by the form name they were keyed with (a rename finds the stale ones by key). */
  byForm: (workspaceId: string, formId: string, formName: string | undefined, checkoutId: string): ItemKey =>
    itemKey(checkoutListKeys.byFormPartition(workspaceId, formId), checkoutListKeys.sortKey(formName === undefined ? '' : encodeText(formName), checkoutId)),
  byFormPartition: (workspaceId: string, formId: string) => `WS#${workspaceId}#CHECKOUTS#BY_FORM#${formId}`,
  /**
   * The sort-key ranges, in a partition keyed `<encoded name>\u0001<id>`, of the entries keyed with a
   * name other than `name`: below and above that name's keys (ids are hex, so `g` bounds them).
   */
  otherNameRanges: (name: string) => {
    const prefix = `${encodeText(name)}${SEPARATOR}`;
    return [{ lt: prefix }, { gte: `${prefix}g` }];
  },
};

/** The sort-key bounds of an integer interval [lo, hi) of a numeric sort field, for a key range. */
export function numberRangeKeys(range: { lo?: number; hi?: number }): { from?: string; to?: string } {
  return {
    ...(range.lo !== undefined ? { from: encodeNumber(range.lo) } : {}),
    ...(range.hi !== undefined ? { to: encodeNumber(range.hi) } : {}),
  };
}

/** The scopes a checkout is listed in. */
export function scopesOf(record: Pick<CheckoutRecord, 'status' | 'visibility' | 'eventId' | 'timeslotId'>): ListScope[] {
  return [
    { kind: 'all' },
    { kind: 'cell', status: record.status, visibility: record.visibility, eventSet: record.eventId !== undefined },
    ...(record.eventId !== undefined ? [{ kind: 'event' as const, eventId: record.eventId }] : []),
    ...(record.timeslotId !== undefined ? [{ kind: 'slot' as const, timeslotId: record.timeslotId }] : []),
  ];
}

/** What a projection carries: the filter fields, and name and description in the ALL scope (search). */
export interface ListEntry {
  id: string;
  status: CheckoutStatus;
  visibility: CheckoutVisibility;
  eventId?: string;
  timeslotId?: string;
  productsCount: number;
  createdAt: string;
  updatedAt: string;
  name?: string;
  description?: string;
}

function entryOf(record: CheckoutRecord, withText: boolean): ListEntry {
  return {
    id: record.id,
    status: record.status,
    visibility: record.visibility,
    ...(record.eventId !== undefined ? { eventId: record.eventId } : {}),
    ...(record.timeslotId !== undefined ? { timeslotId: record.timeslotId } : {}),
    productsCount: productsCountOf(record),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...(withText ? { name: record.name, ...(record.description !== undefined ? { description: record.description } : {}) } : {}),
  };
}

/** Every list projection of a checkout (and its by-form pointer), as items to put. */
export function listItemsOf(workspaceId: string, record: CheckoutRecord, names: ListNames): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const scope of scopesOf(record)) {
    const entry = entryOf(record, scope.kind === 'all');
    for (const field of CHECKOUT_SORT_FIELDS) {
      const value = sortValueOf(record, field, names);
      const segment: ListSegment = value === undefined ? 'none' : 'value';
      items.push({
        ...itemKey(checkoutListKeys.partition(workspaceId, field, segment, scope), checkoutListKeys.sortKey(value ?? '', record.id)),
        ...entityAttribute(CHECKOUT_LIST_ENTRY_ENTITY),
        ...entry,
      });
    }
  }
  if (record.orderFormId !== undefined) {
    items.push({ ...checkoutListKeys.byForm(workspaceId, record.orderFormId, names.form, record.id), ...entityAttribute(CHECKOUT_BY_FORM_ENTITY), id: record.id });
  }
  return items;
}
