import type { RetrySchedule } from '../../../shared/webhooks/retry-schedule.js';
import { startStreamReader, type StreamReader } from './stream-reader.js';
import { LocalDeliveryQueue } from './local-queue.js';

export interface LocalWebhooksOptions {
  endpoint: string;
  tableName: string;
  /** `TRIM_HORIZON` (npm start) delivers what is still in the stream from before a restart. */
  startAt: 'LATEST' | 'TRIM_HORIZON';
  /** @default LOCAL_SCHEDULE (1 s, 2 s, 4 s, ... 64 s) */
  schedule?: RetrySchedule;
  /** @default 10 s, as deployed */
  timeoutMs?: number;
}

export interface LocalWebhooks {
  queue: LocalDeliveryQueue;
  stop(): Promise<void>;
}

/**
 * Webhook delivery inside the local server, with the code that runs deployed: DynamoDB Local's stream
 * -> the dispatcher -> a local stand-in for the SQS queue -> the sender. Only the two AWS engines
 * (the stream's event-source mapping and SQS) are emulated; the schedule is compressed.
 */
export async function startLocalWebhooks(options: LocalWebhooksOptions): Promise<LocalWebhooks> {
  // Runtime modules read the environment at import time, so they load only now.
  const { createDispatcher } = await import('../../../shared/webhooks/dispatcher.js');
  const { matchesDispatchFilter } = await import('../../../shared/webhooks/dispatch-filter.js');
  const { createSender, senderSettings } = await import('../../../shared/webhooks/sender.js');
  const { LOCAL_SCHEDULE } = await import('../../../shared/webhooks/retry-schedule.js');
  const queue = new LocalDeliveryQueue({
    visibilityTimeoutMs: 5_000,
    maxReceiveCount: 12,
    // Deployed, the DLQ's alarm fires here: a delivery failed all 8 attempts, or the sender crashed on it 12 times.
    onDeadLetter: (body) => console.error(`Webhook delivery dead-lettered (see its attempts in GET /v1/webhook-endpoints/{id}/deliveries): ${body}`),
  });
  const settings = senderSettings(options.schedule ?? LOCAL_SCHEDULE, options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
  queue.start(createSender(settings, queue));
  let reader: StreamReader;
  try {
    reader = await startStreamReader({
      endpoint: options.endpoint,
      tableName: options.tableName,
      startAt: options.startAt,
      filter: matchesDispatchFilter,
      handler: createDispatcher(queue),
      onError: (error) => console.error('Webhook stream reader:', error instanceof Error ? error.message : error),
    });
  } catch (error) {
    await queue.stop();
    throw error;
  }
  return {
    queue,
    async stop() {
      await reader.stop();
      await queue.stop();
    },
  };
}
