import { describe, expect, it } from 'vitest';
import { effectiveSort, isSelected, pageOf, sortCheckouts, type DisplayNames } from '../../../shared/checkouts/checkout-listing.js';
import { checkoutRecord, productEntry } from './factories.js';

const noNames: DisplayNames = { events: new Map(), forms: new Map() };
const namesOf = (records: { name: string }[]) => records.map((record) => record.name);

describe('isSelected', () => {
  it('searches name and description case-insensitively', () => {
    const record = checkoutRecord({ name: 'Spring Gala', description: 'Black TIE dinner' });
    expect(isSelected(record, { search: 'gala' })).toBe(true);
    expect(isSelected(record, { search: 'tie din' })).toBe(true);
    expect(isSelected(record, { search: 'brunch' })).toBe(false);
  });

  it('ignores a blank search', () => {
    expect(isSelected(checkoutRecord(), { search: '   ' })).toBe(true);
  });

  it('combines status, eventId and timeslotId filters', () => {
    const record = checkoutRecord({ status: 'closed', eventId: 'e1', timeslotId: 't1' });
    expect(isSelected(record, { status: 'closed', eventId: 'e1', timeslotId: 't1' })).toBe(true);
    expect(isSelected(record, { status: 'open' })).toBe(false);
    expect(isSelected(record, { eventId: 'e2' })).toBe(false);
    expect(isSelected(record, { timeslotId: 't2' })).toBe(false);
  });

  it('evaluates JSON filters on computed productsCount and isEventSet', () => {
    const record = checkoutRecord({ products: [productEntry('p1'), productEntry('p2')] });
    expect(isSelected(record, { filters: [{ field: 'productsCount', op: 'eq', value: 2 }, { field: 'isEventSet', op: 'eq', value: false }] })).toBe(true);
    expect(isSelected(record, { filters: [{ field: 'productsCount', op: 'gt', value: 2 }] })).toBe(false);
  });
});

describe('sortCheckouts', () => {
  it('sorts names case-insensitively and numerically', () => {
    const records = [checkoutRecord({ name: 'b10' }), checkoutRecord({ name: 'B9' }), checkoutRecord({ name: 'a' })];
    expect(namesOf(sortCheckouts(records, 'name', 'asc', noNames))).toEqual(['a', 'B9', 'b10']);
    expect(namesOf(sortCheckouts(records, 'name', 'desc', noNames))).toEqual(['b10', 'B9', 'a']);
  });

  it('sorts _id by code point, which is creation order for hex ids that straddle digits and letters', () => {
    // Prepare: natural-order collation would read "1199" as a number and put it after "119a".
    const ids = ['6b0159965bcc9e31f56c119a', '6b0159965bcc9e31f56c1199', '6b0159965bcc9e31f56c119b'];
    const records = ids.map((id) => checkoutRecord({ id }));
    // Act
    const ascending = sortCheckouts(records, '_id', 'asc', noNames).map((record) => record.id);
    const descending = sortCheckouts(records, '_id', 'desc', noNames).map((record) => record.id);
    // Assess
    expect(ascending).toEqual(['6b0159965bcc9e31f56c1199', '6b0159965bcc9e31f56c119a', '6b0159965bcc9e31f56c119b']);
    expect(descending).toEqual([...ascending].reverse());
  });

  it('puts checkouts without the value last in both directions', () => {
    const records = [checkoutRecord({ name: 'none' }), checkoutRecord({ name: 'z', description: 'z' }), checkoutRecord({ name: 'a', description: 'a' })];
    expect(namesOf(sortCheckouts(records, 'description', 'asc', noNames))).toEqual(['a', 'z', 'none']);
    expect(namesOf(sortCheckouts(records, 'description', 'desc', noNames))).toEqual(['z', 'a', 'none']);
  });

  it('sorts by event and form display names', () => {
    const names: DisplayNames = { events: new Map([['e1', 'Zoo'], ['e2', 'Aquarium']]), forms: new Map([['f1', 'Beta'], ['f2', 'Alpha']]) };
    const records = [checkoutRecord({ name: 'zoo', eventId: 'e1', orderFormId: 'f2' }), checkoutRecord({ name: 'aqua', eventId: 'e2', orderFormId: 'f1' }), checkoutRecord({ name: 'none' })];
    expect(namesOf(sortCheckouts(records, 'event', 'asc', names))).toEqual(['aqua', 'zoo', 'none']);
    expect(namesOf(sortCheckouts(records, 'form', 'asc', names))).toEqual(['zoo', 'aqua', 'none']);
  });

  it('sorts by productsCount and breaks ties on id in the same direction', () => {
    const first = checkoutRecord({ name: 'first', products: [productEntry('p1')] });
    const second = checkoutRecord({ name: 'second', products: [productEntry('p1')] });
    const many = checkoutRecord({ name: 'many', products: [productEntry('p1'), productEntry('p2')] });
    expect(namesOf(sortCheckouts([many, second, first], 'productsCount', 'asc', noNames))).toEqual(['first', 'second', 'many']);
    expect(namesOf(sortCheckouts([first, second, many], 'productsCount', 'desc', noNames))).toEqual(['many', 'second', 'first']);
  });

  it('sorts timestamps as instants', () => {
    const late = checkoutRecord({ name: 'late', updatedAt: '2030-01-01T10:00:00.000Z' });
    const early = checkoutRecord({ name: 'early', updatedAt: '2030-01-01T09:00:00.000Z' });
    expect(namesOf(sortCheckouts([late, early], 'updatedAt', 'asc', noNames))).toEqual(['early', 'late']);
  });

  it('does not reorder its input', () => {
    const records = [checkoutRecord({ name: 'b' }), checkoutRecord({ name: 'a' })];
    sortCheckouts(records, 'name', 'asc', noNames);
    expect(namesOf(records)).toEqual(['b', 'a']);
  });
});

describe('effectiveSort', () => {
  it('defaults to newest first', () => {
    expect(effectiveSort({})).toEqual({ field: 'createdAt', direction: 'desc' });
  });

  it('defaults to ascending when a field is named', () => {
    expect(effectiveSort({ sortField: 'name' })).toEqual({ field: 'name', direction: 'asc' });
    expect(effectiveSort({ sortField: 'name', sortDirection: 'desc' })).toEqual({ field: 'name', direction: 'desc' });
  });
});

describe('pageOf', () => {
  it('cuts the page and tells whether more follow', () => {
    expect(pageOf([1, 2, 3, 4, 5], 1, 2)).toEqual({ items: [3, 4], hasMore: true });
    expect(pageOf([1, 2, 3, 4], 1, 2)).toEqual({ items: [3, 4], hasMore: false });
    expect(pageOf([1, 2], 5, 2)).toEqual({ items: [], hasMore: false });
  });
});
