import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { fromWorkspaceItem, workspaceKeys } from '../../shared/workspaces/workspace-model.js';
import type { RateLimit } from '../../shared/http/rate-limits.js';

/** Reads a workspace's own limits (undefined: it has none, the defaults apply). */
export type LimitsLoader = (workspaceId: string) => Promise<RateLimit | undefined>;

interface Entry {
  limits: RateLimit | undefined;
  loadedAt: number;
  loading?: Promise<void>;
}

/** Workspaces remembered at most (a local server never sees that many; a bound all the same). */
const MAX_ENTRIES = 10_000;

/**
 * The local server's copy of the workspaces' limits, which deployed live in their usage plans. A
 * request never waits for the table: it gets the limits last read (the defaults until the first read
 * answers), and a copy older than `refreshMs` is re-read in the background, so a change made with the
 * admin CLI applies within `refreshMs` plus one read. A failed read keeps what was known.
 */
export class WorkspaceLimitsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly load: LimitsLoader,
    private readonly defaults: RateLimit,
    private readonly refreshMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The limits to apply to a request of this workspace now. */
  limitsOf(workspaceId: string): RateLimit {
    let entry = this.entries.get(workspaceId);
    if (!entry) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      entry = { limits: undefined, loadedAt: -Infinity };
      this.entries.set(workspaceId, entry);
    }
    if (!entry.loading && this.now() - entry.loadedAt >= this.refreshMs) this.refresh(workspaceId, entry);
    return entry.limits ?? this.defaults;
  }

  /** Settles once the reads under way are done (tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.loading));
  }

  private refresh(workspaceId: string, entry: Entry): void {
    const started = this.now();
    entry.loading = this.load(workspaceId).then(
      (limits) => {
        entry.limits = limits;
        entry.loadedAt = started;
      },
      () => {
        // Keep what was known; try again after another interval rather than on every request.
        entry.loadedAt = started;
      },
    ).finally(() => {
      entry.loading = undefined;
    });
  }
}

/**
 * Reads limits from the workspace item with a client of its own: not the handlers' instrumented client,
 * so these reads never show in a request's `X-Db-Stats` or in the fault suite's call counts, as the
 * usage plan lookup of API Gateway does not. A read that takes longer than a second is abandoned.
 */
export function tableLimitsLoader(options: { endpoint: string | undefined; tableName: string }): LimitsLoader {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ ...(options.endpoint ? { endpoint: options.endpoint } : {}), maxAttempts: 1 }));
  return async (workspaceId) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: options.tableName, Key: workspaceKeys.workspace(workspaceId), ProjectionExpression: '#limits', ExpressionAttributeNames: { '#limits': 'limits' } }),
      { abortSignal: AbortSignal.timeout(1_000) },
    );
    return Item ? fromWorkspaceItem(Item).limits : undefined;
  };
}
