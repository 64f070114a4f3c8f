import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** What one request cost in DynamoDB: logged with the request id, exposed locally as a header. */
export interface DbStats {
  calls: number;
  readUnits: number;
  writeUnits: number;
  /** Items DynamoDB read (ScannedCount for queries, items returned for gets). */
  itemsRead: number;
  commands: Record<string, number>;
}

/** Raised when request-path code issues a Scan: lists must be Queries on a designed key or index. */
export class ScanOnRequestPathError extends Error {
  constructor() {
    super('Scan is not allowed on a request path; use a Query on a key or index designed for it.');
    this.name = 'ScanOnRequestPathError';
  }
}

interface Scope {
  stats: DbStats;
}

const storage = new AsyncLocalStorage<Scope>();

export function emptyStats(): DbStats {
  return { calls: 0, readUnits: 0, writeUnits: 0, itemsRead: 0, commands: {} };
}

/** Runs `fn` as one request: DynamoDB calls inside it are counted, and Scan is refused. */
export async function withRequestScope<T>(fn: () => Promise<T>): Promise<{ result: T; stats: DbStats }> {
  const scope: Scope = { stats: emptyStats() };
  const result = await storage.run(scope, fn);
  return { result, stats: scope.stats };
}

/** Statistics of the request in progress, if any. */
export function currentDbStats(): DbStats | undefined {
  return storage.getStore()?.stats;
}

interface CapacityLike {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

const READ_COMMANDS = new Set(['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand', 'TransactGetItemsCommand']);

function addCapacity(stats: DbStats, commandName: string, consumed: CapacityLike | CapacityLike[] | undefined): void {
  if (!consumed) return;
  for (const entry of Array.isArray(consumed) ? consumed : [consumed]) {
    const total = entry.CapacityUnits ?? 0;
    if (entry.ReadCapacityUnits !== undefined || entry.WriteCapacityUnits !== undefined) {
      stats.readUnits += entry.ReadCapacityUnits ?? 0;
      stats.writeUnits += entry.WriteCapacityUnits ?? 0;
    } else if (READ_COMMANDS.has(commandName)) {
      stats.readUnits += total;
    } else {
      stats.writeUnits += total;
    }
  }
}

interface OutputLike {
  ConsumedCapacity?: CapacityLike | CapacityLike[];
  ScannedCount?: number;
  Item?: unknown;
  Responses?: Record<string, unknown[]> | unknown[];
}

function itemsRead(commandName: string, output: OutputLike): number {
  if (typeof output.ScannedCount === 'number') return output.ScannedCount;
  if (commandName === 'GetItemCommand') return output.Item ? 1 : 0;
  if (Array.isArray(output.Responses)) return output.Responses.length;
  if (output.Responses) return Object.values(output.Responses).reduce((sum, items) => sum + items.length, 0);
  return 0;
}

const CAPACITY_COMMANDS = new Set([
  'GetItemCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'QueryCommand',
  'BatchGetItemCommand', 'BatchWriteItemCommand', 'TransactGetItemsCommand', 'TransactWriteItemsCommand',
]);

/**
 * Adds the instrumentation middleware to a DynamoDB client: inside a request scope every call asks
 * DynamoDB for its consumed capacity, is counted, and a Scan is rejected before it is sent.
 */
export function instrumentDynamoClient(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const scope = storage.getStore();
      if (!scope) return next(args);
      const commandName = context.commandName ?? 'UnknownCommand';
      if (commandName === 'ScanCommand') throw new ScanOnRequestPathError();
      const input = args.input as { ReturnConsumedCapacity?: string };
      if (CAPACITY_COMMANDS.has(commandName) && input.ReturnConsumedCapacity === undefined) {
        input.ReturnConsumedCapacity = 'TOTAL';
      }
      const stats = scope.stats;
      stats.calls += 1;
      stats.commands[commandName] = (stats.commands[commandName] ?? 0) + 1;
      const result = await next(args);
      const output = result.output as OutputLike;
      addCapacity(stats, commandName, output.ConsumedCapacity);
      stats.itemsRead += itemsRead(commandName, output);
      return result;
    },
    { step: 'initialize', name: 'boxofficeDbInstrumentation', override: true },
  );
}

/** Compact header form: `calls=3;rcu=1.5;wcu=0;items=20`. */
export function formatDbStats(stats: DbStats): string {
  return `calls=${stats.calls};rcu=${stats.readUnits};wcu=${stats.writeUnits};items=${stats.itemsRead}`;
}
