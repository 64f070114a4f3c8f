import { describe, expect, it } from 'vitest';
import { createRouteResolver } from '../../../bin/local/route-resolver.js';
import { routeTable } from '../../../shared/http/routes.js';

const resolve = createRouteResolver(routeTable);

describe('local route resolution', () => {
  it('prefers a static segment over a path parameter, like API Gateway', () => {
    // Act
    const matches = resolve('/v1/events/balance');
    // Assess
    expect(matches.map((match) => match.route.path)).toEqual(['/v1/events/balance']);
  });

  it('returns every method of the matched resource with its decoded parameters, with or without a trailing slash', () => {
    const id = '6740f1a2c3d4e5f601234567';
    const matches = resolve(`/v1/forms/${id}/`);
    expect(matches.map((match) => match.route.method).sort()).toEqual(['GET', 'PATCH']);
    expect(matches.every((match) => match.params.formId === id)).toBe(true);
  });

  it('answers the same resolution for a repeated path and nothing for an unknown one', () => {
    expect(resolve('/v1/')).toBe(resolve('/v1/'));
    expect(resolve('/v2/nothing')).toEqual([]);
  });
});
