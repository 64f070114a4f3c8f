import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WORKSPACE_LIMITS, PUBLIC_ADDRESS_LIMITS, addressLimitedPathRegex, isAddressLimited, localDefaults, wafWindowLimit,
} from '../../../shared/http/rate-limits.js';
import { routeTable } from '../../../shared/http/routes.js';

const LIMITED = ['/partner/events', '/partner/events/', '/forms/abc', '/forms/abc/responses', '/forms/abc/responses/'];
const NOT_LIMITED = ['/v1/forms/abc', '/v1/forms', '/health', '/docs', '/openapi.json', '/widget/v1/boxoffice.js', '/partner/eventsx', '/v1/partner/events', '/forms'];

describe('rate limits', () => {
  it('follows the contract: 100 requests/s, burst 200 per workspace deployed; ten times that locally', () => {
    expect(DEFAULT_WORKSPACE_LIMITS).toEqual({ rate: 100, burst: 200 });
    expect(localDefaults(DEFAULT_WORKSPACE_LIMITS)).toEqual({ rate: 1000, burst: 2000 });
  });

  it.each(LIMITED)('limits %s per client address', (path) => {
    expect(isAddressLimited(path)).toBe(true);
  });

  it.each(NOT_LIMITED)('does not limit %s per client address', (path) => {
    expect(isAddressLimited(path)).toBe(false);
  });

  it('limits per address exactly the public routes of /partner/events and /forms/..., never a key route', () => {
    // Act
    const limited = routeTable.filter((route) => isAddressLimited(route.path));

    // Assess
    expect(limited.map((route) => route.auth)).toEqual(limited.map(() => 'public'));
    expect(limited.map((route) => `${route.method} ${route.path}`).sort()).toEqual(['GET /forms/{formId}', 'GET /partner/events', 'POST /forms/{formId}/responses']);
  });

  it('gives WAF a path pattern that matches the same paths, with or without the stage in front', () => {
    // Prepare
    const regex = new RegExp(addressLimitedPathRegex('prod'));

    // Assess
    for (const path of LIMITED) {
      expect(regex.test(path), path).toBe(true);
      expect(regex.test(`/prod${path}`), `/prod${path}`).toBe(true);
    }
    for (const path of NOT_LIMITED) {
      expect(regex.test(path), path).toBe(false);
      expect(regex.test(`/prod${path}`), `/prod${path}`).toBe(false);
    }
    expect(regex.test('/dev/forms/abc')).toBe(false);
  });

  it('turns the per-address rate into WAF\'s count over its 60 s window', () => {
    expect(wafWindowLimit(PUBLIC_ADDRESS_LIMITS)).toBe(PUBLIC_ADDRESS_LIMITS.rate * 60);
    expect(wafWindowLimit({ rate: 0.01, burst: 1 })).toBe(10);
  });
});
