import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { issuesToDetails } from '../../../shared/model/issues.js';

const group = z.union([
  z.strictObject({ at: z.number(), operator: z.enum(['any_of', 'all_of']) }),
  z.strictObject({ at: z.number(), selectionType: z.enum(['is', 'is_not']), value: z.boolean() }),
], { error: 'must be {at, operator} or {at, selectionType, value}' });
const body = z.strictObject({ groups: z.array(group) });
const detailsOf = (input: unknown) => issuesToDetails(body.safeParse(input).error as z.ZodError);

describe('issuesToDetails on a failed union', () => {
  it('reports the issues of the one branch whose keys the input fits, on their own paths', () => {
    expect(detailsOf({ groups: [{ at: 1, operator: 'one_of' }] })).toEqual([
      { path: 'groups[0].operator', message: 'Invalid option: expected one of "any_of"|"all_of"' },
    ]);
    expect(detailsOf({ groups: [{ at: 1, selectionType: 'is', value: 'true' }] })).toEqual([
      { path: 'groups[0].value', message: 'Invalid input: expected boolean, received string' },
    ]);
  });

  it('keeps the union\'s own message when no branch, or several, fit the keys', () => {
    expect(detailsOf({ groups: ['x'] })).toEqual([{ path: 'groups[0]', message: 'must be {at, operator} or {at, selectionType, value}' }]);
    expect(detailsOf({ groups: [{ at: 'x' }] })).toEqual([{ path: 'groups[0]', message: 'must be {at, operator} or {at, selectionType, value}' }]);
  });
});
