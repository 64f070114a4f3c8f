import { describe, expect, it } from 'vitest';
import { effectiveSort, isSelected, searchNeedle } from '../../../shared/checkouts/checkout-listing.js';
import { checkoutRecord, productEntry } from './factories.js';

describe('isSelected', () => {
  it('searches name and description case-insensitively', () => {
    const record = checkoutRecord({ name: 'Spring Gala', description: 'Black TIE dinner' });
    expect(isSelected(record, [], searchNeedle('gala'))).toBe(true);
    expect(isSelected(record, [], searchNeedle('tie din'))).toBe(true);
    expect(isSelected(record, [], searchNeedle('brunch'))).toBe(false);
  });

  it('ignores a blank search', () => {
    expect(searchNeedle('   ')).toBeUndefined();
    expect(isSelected(checkoutRecord(), [], searchNeedle('   '))).toBe(true);
  });

  it('requires every condition, on status, eventId and timeslotId', () => {
    const record = checkoutRecord({ status: 'closed', eventId: 'e1', timeslotId: 't1' });
    expect(isSelected(record, [{ field: 'status', op: 'eq', value: 'closed' }, { field: 'eventId', op: 'eq', value: 'e1' }, { field: 'timeslotId', op: 'eq', value: 't1' }], undefined)).toBe(true);
    expect(isSelected(record, [{ field: 'status', op: 'eq', value: 'open' }], undefined)).toBe(false);
    expect(isSelected(record, [{ field: 'eventId', op: 'eq', value: 'e2' }], undefined)).toBe(false);
    expect(isSelected(record, [{ field: 'timeslotId', op: 'eq', value: 't2' }], undefined)).toBe(false);
  });

  it('evaluates conditions on computed productsCount and isEventSet', () => {
    const record = checkoutRecord({ products: [productEntry('p1'), productEntry('p2')] });
    expect(isSelected(record, [{ field: 'productsCount', op: 'eq', value: 2 }, { field: 'isEventSet', op: 'eq', value: false }], undefined)).toBe(true);
    expect(isSelected(record, [{ field: 'productsCount', op: 'gt', value: 2 }], undefined)).toBe(false);
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
