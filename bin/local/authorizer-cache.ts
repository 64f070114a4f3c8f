import type { APIGatewayAuthorizerResult } from 'aws-lambda';

/**
 * The local stand-in for API Gateway's FlushStageAuthorizersCache: `DELETE` empties the cache, so that
 * `npm run admin -- key revoke` takes effect at once under `npm start` as it does deployed.
 */
export const LOCAL_AUTHORIZER_CACHE_PATH = '/_local/authorizer-cache';

/** Distinct identities kept at most (a local server never sees that many keys; a bound all the same). */
const MAX_ENTRIES = 10_000;

/**
 * API Gateway's authorizer result cache: the policy (and context) the authorizer returned, kept per
 * identity source value for the TTL, and evaluated against each request's method ARN. Like API Gateway,
 * it keeps policies only: a thrown `Unauthorized` is asked again next time.
 */
export class AuthorizerCache {
  private readonly entries = new Map<string, { result: APIGatewayAuthorizerResult; expiresAt: number }>();

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(identity: string): APIGatewayAuthorizerResult | undefined {
    const entry = this.entries.get(identity);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(identity);
      return undefined;
    }
    return entry.result;
  }

  set(identity: string, result: APIGatewayAuthorizerResult): void {
    if (this.ttlSeconds <= 0) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(identity, { result, expiresAt: this.now() + this.ttlSeconds * 1000 });
  }

  /** Forgets every cached result (FlushStageAuthorizersCache). */
  clear(): void {
    this.entries.clear();
  }
}
