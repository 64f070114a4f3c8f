import { describe, expect, it } from 'vitest';
import type { FilterCondition } from '../../../shared/checkouts/checkout-filters.js';
import { MAX_MERGED_VALUES, conditionsOf, planCheckoutList } from '../../../shared/checkouts/checkout-list-plan.js';

const plan = (conditions: FilterCondition[], options: { sortField?: Parameters<typeof planCheckoutList>[0]['sortField']; search?: string } = {}) =>
  planCheckoutList({ sortField: options.sortField ?? 'createdAt', ascending: false, search: options.search, conditions });
const c = (field: string, op: string, value: unknown) => ({ field, op, value }) as FilterCondition;

describe('planCheckoutList', () => {
  it('reads the ALL scope when nothing narrows the list', () => {
    expect(plan([])).toEqual({ scopes: [{ kind: 'all' }], residual: [] });
  });

  it('turns status into the 4 cells that hold it, with nothing left to evaluate', () => {
    const result = plan(conditionsOf({ status: 'closed' }));
    expect(result.residual).toEqual([]);
    expect(result.scopes).toHaveLength(4);
    expect(result.scopes.every((scope) => scope.kind === 'cell' && scope.status === 'closed')).toBe(true);
  });

  it('intersects eq, ne and in on status, visibility and isEventSet into cells', () => {
    const result = plan([c('status', 'ne', 'open'), c('visibility', 'in', ['public']), c('isEventSet', 'eq', true)]);
    expect(result).toEqual({ scopes: [{ kind: 'cell', status: 'closed', visibility: 'public', eventSet: true }], residual: [] });
  });

  it('answers nothing, without a read, when the conditions exclude every cell', () => {
    expect(plan([c('status', 'eq', 'open'), c('status', 'eq', 'closed')]).scopes).toEqual([]);
  });

  it('reads the event partition for eventId and evaluates the other conditions', () => {
    const status = c('status', 'eq', 'open');
    const result = plan([status, ...conditionsOf({ eventId: 'e1' })]);
    expect(result).toEqual({ scopes: [{ kind: 'event', eventId: 'e1' }], residual: [status] });
  });

  it('merges the partitions of a small eventId in-list, and evaluates a large one', () => {
    expect(plan([c('eventId', 'in', ['a', 'b', 'a'])]).scopes).toEqual([{ kind: 'event', eventId: 'a' }, { kind: 'event', eventId: 'b' }]);
    const many = c('eventId', 'in', Array.from({ length: MAX_MERGED_VALUES + 1 }, (_, index) => `e${index}`));
    expect(plan([many])).toEqual({ scopes: [{ kind: 'all' }], residual: [many] });
  });

  it('reads the timeslot partition for timeslotId', () => {
    expect(plan(conditionsOf({ timeslotId: 'slot' })).scopes).toEqual([{ kind: 'slot', timeslotId: 'slot' }]);
  });

  it('turns range conditions on the numeric sort field into a half-open key range', () => {
    const result = plan([c('productsCount', 'gt', 1), c('productsCount', 'lte', 5), c('productsCount', 'gte', 0)], { sortField: 'productsCount' });
    expect(result).toEqual({ scopes: [{ kind: 'all' }], range: { lo: 2, hi: 6 }, residual: [] });
    expect(plan([c('createdAt', 'eq', 1000)]).range).toEqual({ lo: 1000, hi: 1001 });
  });

  it('keeps ne and in on the sort field, and ranges on another field, to evaluate', () => {
    const ne = c('productsCount', 'ne', 1);
    const other = c('updatedAt', 'gt', 5);
    expect(plan([ne, other], { sortField: 'productsCount' })).toEqual({ scopes: [{ kind: 'all' }], residual: [ne, other] });
  });

  it('answers nothing for an empty range', () => {
    expect(plan([c('createdAt', 'gt', 10), c('createdAt', 'lt', 11)]).scopes).toEqual([]);
    expect(plan([c('productsCount', 'lt', 0)], { sortField: 'productsCount' }).scopes).toEqual([]);
  });

  it('searches the ALL scope, evaluating every condition but the key range', () => {
    const status = c('status', 'eq', 'open');
    const range = c('createdAt', 'gte', 5);
    expect(plan([status, range], { search: '  Gala ' })).toEqual({ scopes: [{ kind: 'all' }], range: { lo: 5 }, residual: [status], search: 'gala' });
  });
});
