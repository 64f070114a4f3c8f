import type { WorkspaceLimits } from '../workspaces/workspace-model.js';

/**
 * Rate limits (API.md "Rate limits"), defined once for the CDK stack, the local server and the admin
 * CLI. Above a limit the answer is 429 `rate_limited` with `Retry-After`.
 *
 * - Per workspace (`/v1` routes): a steady rate and a burst. Deployed, each workspace has its own API
 *   Gateway usage plan, found through the API key the authorizer returns as `usageIdentifierKey`.
 * - Per client address on the public routes that read or write tenant data (`/partner/events`,
 *   `/forms/...`): deployed, a rate-based rule of the stage's AWS WAF web ACL.
 */
export type RateLimit = WorkspaceLimits;

/** Every workspace's limits until an operator sets its own (`npm run admin -- workspace limits`). */
export const DEFAULT_WORKSPACE_LIMITS: RateLimit = { rate: 100, burst: 200 };

/**
 * One client address on the public routes. A page with a widget makes a handful of requests (script,
 * a listing or a form, a submission), so 20 a second leaves room for many visitors behind one NAT,
 * while a scraper or a flood of submissions is held at 1,200 a minute.
 */
export const PUBLIC_ADDRESS_LIMITS: RateLimit = { rate: 20, burst: 40 };

/**
 * The local server's defaults are this many times the deployed ones, so that demos and test suites
 * never meet them. Limits an operator sets on a workspace apply as set, locally too.
 */
export const LOCAL_DEFAULTS_FACTOR = 10;

/** The defaults the local server applies. */
export function localDefaults(limit: RateLimit): RateLimit {
  return { rate: limit.rate * LOCAL_DEFAULTS_FACTOR, burst: limit.burst * LOCAL_DEFAULTS_FACTOR };
}

/**
 * A workspace's new limits apply within this many seconds (the contract says 5): the local server
 * re-reads a workspace's limits at most this often while it has traffic.
 */
export const LIMITS_REFRESH_SECONDS = 2;

/** The public paths limited per client address (API Gateway paths, no stage). */
export const ADDRESS_LIMITED_PATHS = { exact: ['/partner/events'], prefixes: ['/forms/'] } as const;

/** Whether a request path (no stage, trailing slash allowed) is limited per client address. */
export function isAddressLimited(path: string): boolean {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return (ADDRESS_LIMITED_PATHS.exact as readonly string[]).includes(trimmed)
    || ADDRESS_LIMITED_PATHS.prefixes.some((prefix) => path.startsWith(prefix));
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The same paths as a regular expression over the URI path AWS WAF inspects: with the stage in front
 * (`/prod/forms/...` on the execute-api host) or without it (behind a custom domain). The stage is
 * named, never `[^/]+`: that would also match `/v1/forms/...`, the hosts' key routes.
 */
export function addressLimitedPathRegex(stage: string): string {
  const exact = ADDRESS_LIMITED_PATHS.exact.map((path) => `${escapeRegex(path)}/?$`);
  const prefixes = ADDRESS_LIMITED_PATHS.prefixes.map((prefix) => escapeRegex(prefix));
  return `^(/${escapeRegex(stage)})?(${[...exact, ...prefixes].join('|')})`;
}

/**
 * AWS WAF counts each address's requests over a trailing window (60 s is its shortest) and has no
 * burst: the deployed rule allows the steady rate times the window.
 */
export const WAF_EVALUATION_WINDOW_SECONDS = 60;

/** WAF's limit for the window (WAF accepts 10 at least). */
export function wafWindowLimit(limit: RateLimit): number {
  return Math.max(10, Math.round(limit.rate * WAF_EVALUATION_WINDOW_SECONDS));
}

/**
 * `Retry-After` of WAF's 429: WAF keeps blocking an address until its count over the trailing window
 * falls under the limit, which takes at most the window.
 */
export const WAF_RETRY_AFTER_SECONDS = WAF_EVALUATION_WINDOW_SECONDS;
