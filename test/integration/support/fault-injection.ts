import {
  InternalServerError, ThrottlingException, TransactionCanceledException, TransactionConflictException,
  TransactionInProgressException, type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';

/**
 * Test-only fault injection on the process's shared DynamoDB client (`shared/db/client.ts`): a
 * middleware, installed by the fault suite only, counts every call the code under test makes while
 * recording, and makes call N fail with fault F. It sits at the top of the stack (above the SDK's
 * retries), so the code under test sees exactly what the SDK hands it once its own attempts are spent.
 */

/** How a DynamoDB call can fail, as the application sees it after the SDK's retries. */
export const FAULT_KINDS = [
  'throttling',
  'transaction-canceled-throttling',
  'transaction-canceled-conflict',
  'transaction-conflict',
  'transaction-in-progress',
  'timeout',
  'network',
  'server-error',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const WRITE_COMMANDS = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand']);

/** The faults DynamoDB can really answer a given command with. */
export function faultsFor(commandName: string): FaultKind[] {
  const any: FaultKind[] = ['throttling', 'timeout', 'network', 'server-error'];
  if (commandName === 'TransactWriteItemsCommand') {
    return [...any, 'transaction-canceled-throttling', 'transaction-canceled-conflict', 'transaction-conflict', 'transaction-in-progress'];
  }
  // A single write touching an item that a transaction is changing is refused with TransactionConflict.
  if (WRITE_COMMANDS.has(commandName)) return [...any, 'transaction-conflict'];
  return any;
}

/** What the SDK's retry middleware leaves on an error once its attempts are spent. */
function metadata(httpStatusCode?: number) {
  return { ...(httpStatusCode === undefined ? {} : { httpStatusCode }), attempts: 3, totalRetryDelay: 150 };
}

function cancellation(itemCount: number, reason: string): TransactionCanceledException {
  const reasons = Array.from({ length: itemCount }, (_item, index) => ({ Code: index === 0 ? reason : 'None' }));
  return new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((entry) => entry.Code).join(', ')}]`,
    CancellationReasons: reasons,
    $metadata: metadata(400),
  });
}

/** The error a real DynamoDB call fails with, for each fault kind. */
export function faultError(kind: FaultKind, input: { TransactItems?: unknown[] }): Error {
  const items = input.TransactItems?.length ?? 1;
  switch (kind) {
    case 'throttling':
      return new ThrottlingException({ message: 'Throughput exceeds the current capacity of your table or index.', $metadata: metadata(400) });
    case 'transaction-canceled-throttling':
      return cancellation(items, 'ThrottlingError');
    case 'transaction-canceled-conflict':
      return cancellation(items, 'TransactionConflict');
    case 'transaction-conflict':
      return new TransactionConflictException({ message: 'Transaction is ongoing for the item', $metadata: metadata(400) });
    case 'transaction-in-progress':
      return new TransactionInProgressException({ message: 'The transaction with the given request token is already in progress.', $metadata: metadata(400) });
    case 'timeout':
      // @smithy/node-http-handler's request timeout, as the retry middleware rethrows it.
      return Object.assign(new Error('@smithy/node-http-handler - a request has exceeded the configured 1000 ms requestTimeout.'), {
        name: 'TimeoutError', code: 'ETIMEDOUT', $metadata: metadata(),
      });
    case 'network':
      return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', $metadata: metadata() });
    case 'server-error':
      return new InternalServerError({ message: 'Internal server error', $metadata: metadata(500) });
  }
}

export interface ArmedFault {
  /** 1-based index of the call to fail, counted from `record()`. */
  call: number;
  kind: FaultKind;
  /** Fail every call from `call` on (a dependency that stays down), not just that one. */
  persistent?: boolean;
  /** Only count calls whose input names this table (e.g. the idempotency table). */
  table?: string;
  /** Only count calls of this command (e.g. `UpdateItemCommand`). */
  command?: string;
}

function tablesOf(input: Record<string, unknown>): string[] {
  if (typeof input.TableName === 'string') return [input.TableName];
  if (input.RequestItems && typeof input.RequestItems === 'object') return Object.keys(input.RequestItems);
  if (Array.isArray(input.TransactItems)) {
    return (input.TransactItems as Record<string, { TableName?: string }>[]).flatMap((item) => Object.values(item).map((op) => op.TableName ?? ''));
  }
  return [];
}

export interface RecordedCall {
  command: string;
  tables: string[];
}

/** Counts calls and fails the armed one. One request at a time: the suite runs sequentially. */
export class FaultInjector {
  private recording = false;
  private armed: ArmedFault | undefined;
  private calls: RecordedCall[] = [];
  private counted = 0;
  /** How many calls the armed fault failed. */
  injected = 0;

  install(client: DynamoDBClient): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (!this.recording) return next(args);
        const command = context.commandName ?? 'UnknownCommand';
        const input = args.input as Record<string, unknown>;
        const tables = tablesOf(input);
        this.calls.push({ command, tables });
        const armed = this.armed;
        if (armed && (armed.table === undefined || tables.includes(armed.table)) && (armed.command === undefined || armed.command === command)) {
          this.counted += 1;
          if (this.counted === armed.call || (armed.persistent && this.counted > armed.call)) {
            this.injected += 1;
            throw faultError(armed.kind, input as { TransactItems?: unknown[] });
          }
        }
        return next(args);
      },
      { step: 'initialize', priority: 'high', name: 'testFaultInjection', override: true },
    );
  }

  /** Starts counting calls; with `fault`, fails the chosen one(s). */
  record(fault?: ArmedFault): void {
    this.recording = true;
    this.armed = fault;
    this.calls = [];
    this.counted = 0;
    this.injected = 0;
  }

  /** Stops counting; returns the calls made since `record`. */
  stop(): RecordedCall[] {
    this.recording = false;
    this.armed = undefined;
    return this.calls;
  }
}
