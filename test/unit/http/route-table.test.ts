import { describe, expect, it } from 'vitest';
import { groupHandlerModules } from '../../../bin/local/group-handlers.js';
import type { Operation } from '../../../shared/http/operation.js';
import { ROUTE_GROUPS, matchPath, type RouteGroup } from '../../../shared/http/route.js';
import { checkGroupCoverage, routeTable, routesOfGroup } from '../../../shared/http/routes.js';

describe('route table', () => {
  it('has unique operation ids', () => {
    const ids = routeTable.map((route) => route.operation);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has unique method and path pairs, in API Gateway syntax without trailing slash', () => {
    const keys = routeTable.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const route of routeTable) {
      expect(route.path, route.operation).toMatch(/^\/([A-Za-z0-9._-]+|\{[A-Za-z]+\})(\/([A-Za-z0-9._-]+|\{[A-Za-z]+\}))*$/);
    }
  });

  it('keeps every key-protected route under /v1 and every /v1 route key-protected', () => {
    for (const route of routeTable) {
      expect(route.path.startsWith('/v1'), route.operation).toBe(route.auth === 'key');
    }
  });

  it.each(ROUTE_GROUPS.map((group) => [group]))('gives every route of group %s exactly one implementation', async (group) => {
    // Prepare
    const module = (await groupHandlerModules[group as RouteGroup]()) as unknown as { operations: Operation[] };
    // Act + Assess
    expect(() => checkGroupCoverage(group as RouteGroup, module.operations)).not.toThrow();
    expect(module.operations.map((operation) => operation.route.operation).sort())
      .toEqual(routesOfGroup(group as RouteGroup).map((route) => route.operation).sort());
  });

  it('fails the coverage check when a route has no implementation', () => {
    expect(() => checkGroupCoverage('system', [])).toThrow(/routes without operation \[getHealth, getApiInfo\]/);
  });

  it('fails the coverage check when an implementation has no route', async () => {
    const { operations } = await import('../../../functions/system/handler.js');
    const stray = { ...operations[0], route: { ...operations[0]!.route, operation: 'strayOperation' } } as Operation;
    expect(() => checkGroupCoverage('system', [...operations, stray])).toThrow(/operations without route \[strayOperation\]/);
  });
});

describe('matchPath', () => {
  it('extracts decoded parameters and accepts a trailing slash', () => {
    expect(matchPath('/v1/forms/{formId}', '/v1/forms/abc%20d/')).toEqual({ formId: 'abc d' });
  });

  it('rejects other shapes', () => {
    expect(matchPath('/v1/forms/{formId}', '/v1/forms')).toBeUndefined();
    expect(matchPath('/v1/forms/{formId}', '/v1/forms/a/b')).toBeUndefined();
    expect(matchPath('/v1/forms/{formId}', '/v1/forms//')).toBeUndefined();
  });
});
