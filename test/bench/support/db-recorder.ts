import * as dynamodb from '@aws-sdk/client-dynamodb';
import { dynamoClient } from '../../../shared/db/client.js';

/** One DynamoDB call as the SDK is about to send it (marshalled input, capacity return requested). */
export interface RecordedCall {
  readonly commandName: string;
  readonly input: unknown;
}

let current: RecordedCall[] | undefined;
let installed = false;

/**
 * Records every DynamoDB call of the process's client while `recordCalls` runs (bench only: requests are
 * sent one at a time, so the calls inside belong to the request). Added at the build step, after the
 * instrumentation has asked for consumed capacity, so a replay sends exactly what the handler sent.
 */
function install(): void {
  if (installed) return;
  installed = true;
  dynamoClient.middlewareStack.add(
    (next, context) => async (args) => {
      current?.push({ commandName: context.commandName ?? 'UnknownCommand', input: structuredClone(args.input) });
      return next(args);
    },
    { step: 'build', name: 'benchCallRecorder' },
  );
}

export async function recordCalls<T>(work: () => Promise<T>): Promise<{ result: T; calls: RecordedCall[] }> {
  install();
  const calls: RecordedCall[] = [];
  current = calls;
  try {
    return { result: await work(), calls };
  } finally {
    current = undefined;
  }
}

type CommandClass = new (input: unknown) => Parameters<typeof dynamoClient.send>[0];

/** Sends recorded calls again, directly on the low-level client, one after the other. */
export async function replay(calls: readonly RecordedCall[]): Promise<void> {
  for (const call of calls) {
    const Command = (dynamodb as unknown as Record<string, CommandClass>)[call.commandName];
    if (!Command) throw new Error(`Cannot replay ${call.commandName}`);
    await dynamoClient.send(new Command(call.input));
  }
}
