import { config } from '../../shared/config.js';
import {
  DEFAULT_WORKSPACE_LIMITS, LIMITS_REFRESH_SECONDS, PUBLIC_ADDRESS_LIMITS, isAddressLimited, localDefaults, type RateLimit,
} from '../../shared/http/rate-limits.js';
import { TokenBuckets } from './token-buckets.js';
import { WorkspaceLimitsCache, tableLimitsLoader, type LimitsLoader } from './workspace-limits.js';

export interface LocalRateLimitOptions {
  /** Limits of workspaces without their own. @default ten times the deployed defaults (1,000/s, burst 2,000) */
  readonly workspaceDefaults?: RateLimit;
  /** Per client address on `/partner/events` and `/forms/...`. @default ten times the deployed limit (200/s, burst 400) */
  readonly publicPerAddress?: RateLimit;
  /** Where workspaces' own limits come from. @default the workspace items of TABLE_NAME */
  readonly loader?: LimitsLoader;
  /** Clock (tests). */
  readonly now?: () => number;
}

/**
 * The local server's rate limits, the same kind as deployed: a token bucket per workspace with the
 * workspace's limits (deployed: its usage plan), and one per client address on the public routes
 * (deployed: the WAF rate-based rule). Each check answers undefined to let the request through, or
 * the seconds to put in `Retry-After`.
 */
export class LocalRateLimiter {
  private readonly buckets: TokenBuckets;
  private readonly workspaceLimits: WorkspaceLimitsCache;
  private readonly perAddress: RateLimit;

  constructor(options: LocalRateLimitOptions = {}) {
    const now = options.now ?? Date.now;
    this.buckets = new TokenBuckets(now);
    this.perAddress = options.publicPerAddress ?? localDefaults(PUBLIC_ADDRESS_LIMITS);
    // The table's loader is built on first use: the environment may be set after the server starts.
    let tableLoader: LimitsLoader | undefined;
    const loader = options.loader ?? ((workspaceId: string) => {
      tableLoader ??= tableLimitsLoader({ endpoint: config().dynamoEndpoint, tableName: config().tableName });
      return tableLoader(workspaceId);
    });
    this.workspaceLimits = new WorkspaceLimitsCache(loader, options.workspaceDefaults ?? localDefaults(DEFAULT_WORKSPACE_LIMITS), LIMITS_REFRESH_SECONDS * 1000, now);
  }

  /** Before routing, as WAF acts before API Gateway: requests to the address-limited public paths. */
  checkAddress(path: string, sourceIp: string): number | undefined {
    return isAddressLimited(path) ? this.buckets.take(`address:${sourceIp}`, this.perAddress) : undefined;
  }

  /** After the authorizer, as a usage plan acts: every request of the workspace, whichever key it used. */
  checkWorkspace(workspaceId: string): number | undefined {
    return this.buckets.take(`workspace:${workspaceId}`, this.workspaceLimits.limitsOf(workspaceId));
  }
}
