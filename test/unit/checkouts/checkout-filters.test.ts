import { describe, expect, it } from 'vitest';
import { filtersQuerySchema, matchesFilters, type FilterableCheckout } from '../../../shared/checkouts/checkout-filters.js';

const parse = (value: unknown) => filtersQuerySchema.safeParse(typeof value === 'string' ? value : JSON.stringify(value));

function filterable(overrides: Partial<FilterableCheckout> = {}): FilterableCheckout {
  return {
    status: 'open', visibility: 'public', isEventSet: false, productsCount: 2,
    createdAt: '2030-01-01T00:00:00.000Z', updatedAt: '2030-01-02T00:00:00.000Z', ...overrides,
  };
}

describe('filtersQuerySchema', () => {
  it('parses a valid array and turns timestamps into epoch milliseconds', () => {
    // Act
    const result = parse([{ field: 'status', op: 'in', value: ['open'] }, { field: 'createdAt', op: 'gte', value: '2030-01-01T00:00:00Z' }]);
    // Assess
    expect(result.success && result.data).toEqual([
      { field: 'status', op: 'in', value: ['open'] },
      { field: 'createdAt', op: 'gte', value: Date.UTC(2030, 0, 1) },
    ]);
  });

  it('accepts an empty array', () => {
    expect(parse([]).success).toBe(true);
  });

  it.each([
    ['text that is not JSON', 'not json', ''],
    ['an object instead of an array', { field: 'status', op: 'eq', value: 'open' }, ''],
    ['an unknown field', [{ field: 'price', op: 'eq', value: 1 }], 'field must be one of'],
    ['an unknown op', [{ field: 'status', op: 'like', value: 'open' }], 'op must be one of'],
    ['an ordered op on an enum field', [{ field: 'status', op: 'gt', value: 'open' }], 'does not apply to status'],
    ['a value of the wrong type', [{ field: 'isEventSet', op: 'eq', value: 'true' }], 'value is not valid'],
    ['an empty in list', [{ field: 'eventId', op: 'in', value: [] }], 'value is not valid'],
    ['a malformed event id', [{ field: 'eventId', op: 'eq', value: 'zz' }], 'value is not valid for eventId eq'],
    ['a malformed event id in a list', [{ field: 'eventId', op: 'in', value: ['e'.repeat(24), 'zz'] }], 'value is not valid for eventId in'],
    ['an extra key', [{ field: 'status', op: 'eq', value: 'open', extra: 1 }], 'value is not valid'],
    ['a non-ISO timestamp', [{ field: 'updatedAt', op: 'lt', value: 'yesterday' }], 'value is not valid'],
  ])('rejects %s', (_label, value, message) => {
    const result = parse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });

  it('points at the offending condition by index', () => {
    const result = parse([{ field: 'status', op: 'eq', value: 'open' }, { field: 'nope', op: 'eq', value: 1 }]);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([[1]]);
  });

  it('refuses more than 20 conditions', () => {
    const result = parse(Array.from({ length: 21 }, () => ({ field: 'status', op: 'eq', value: 'open' })));
    expect(result.success).toBe(false);
  });
});

describe('matchesFilters', () => {
  const conditions = (value: unknown) => {
    const result = parse(value);
    if (!result.success) throw new Error('invalid test filter');
    return result.data;
  };

  it('requires every condition to hold', () => {
    const filters = conditions([{ field: 'status', op: 'eq', value: 'open' }, { field: 'productsCount', op: 'gt', value: 2 }]);
    expect(matchesFilters(filterable({ productsCount: 3 }), filters)).toBe(true);
    expect(matchesFilters(filterable({ productsCount: 2 }), filters)).toBe(false);
  });

  it('compares timestamps as instants', () => {
    const filters = conditions([{ field: 'updatedAt', op: 'lte', value: '2030-01-02T01:00:00+01:00' }]);
    expect(matchesFilters(filterable(), filters)).toBe(true);
    expect(matchesFilters(filterable({ updatedAt: '2030-01-02T00:00:00.001Z' }), filters)).toBe(false);
  });

  it('treats an absent eventId as different from any value', () => {
    const eventId = 'e'.repeat(24);
    expect(matchesFilters(filterable(), conditions([{ field: 'eventId', op: 'ne', value: eventId }]))).toBe(true);
    expect(matchesFilters(filterable(), conditions([{ field: 'eventId', op: 'in', value: [eventId] }]))).toBe(false);
    expect(matchesFilters(filterable({ eventId }), conditions([{ field: 'eventId', op: 'eq', value: eventId }]))).toBe(true);
  });

  it('matches booleans and lt/gte bounds exactly', () => {
    expect(matchesFilters(filterable({ isEventSet: true }), conditions([{ field: 'isEventSet', op: 'eq', value: true }]))).toBe(true);
    expect(matchesFilters(filterable({ productsCount: 2 }), conditions([{ field: 'productsCount', op: 'lt', value: 2 }]))).toBe(false);
    expect(matchesFilters(filterable({ productsCount: 2 }), conditions([{ field: 'productsCount', op: 'gte', value: 2 }]))).toBe(true);
  });
});
