import { matchPath, pathMatcher, type RouteDefinition } from '../../shared/http/route.js';

export interface RouteMatch {
  readonly route: RouteDefinition;
  readonly params: Record<string, string>;
}

/** Paths remembered: the hot ones of a local session, bounded because paths carry ids. */
const MAX_REMEMBERED = 1_000;

/**
 * API Gateway's resource matching over the route table, compiled once: a request path resolves to the
 * routes of the best-matching resource (a static segment beats a path parameter, so
 * `/v1/events/balance` wins over `/v1/events/{id}`), one per method, with their path parameters. The
 * answer for a path is remembered, so a repeated request costs one map lookup.
 */
export function createRouteResolver(routes: readonly RouteDefinition[]): (pathname: string) => readonly RouteMatch[] {
  const compiled = routes.map((route) => ({
    route,
    matcher: pathMatcher(route.path),
    staticness: route.path.split('/').filter((segment) => !segment.startsWith('{')).length,
  }));
  const remembered = new Map<string, readonly RouteMatch[]>();

  const resolve = (pathname: string): readonly RouteMatch[] => {
    const candidates: (RouteMatch & { staticness: number })[] = [];
    for (const { route, matcher, staticness } of compiled) {
      if (!matcher.test(pathname)) continue;
      const params = matchPath(route.path, pathname);
      if (params) candidates.push({ route, params, staticness });
    }
    if (candidates.length === 0) return [];
    candidates.sort((a, b) => b.staticness - a.staticness);
    const bestPath = candidates[0]?.route.path;
    return candidates.filter((candidate) => candidate.route.path === bestPath).map(({ route, params }) => ({ route, params }));
  };

  return (pathname) => {
    let matches = remembered.get(pathname);
    if (!matches) {
      matches = resolve(pathname);
      if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
      remembered.set(pathname, matches);
    }
    return matches;
  };
}
