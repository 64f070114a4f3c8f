import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryQueue, RetryControl } from './delivery-queue.js';
import { tracedClient } from '../observability/tracing.js';
import type { DeliveryMessage } from './webhook-model.js';

/** SQS takes at most 10 messages per batch and a visibility timeout of at most 12 hours. */
const BATCH = 10;
const MAX_VISIBILITY_SECONDS = 12 * 60 * 60;

/** The delivery queue deployed: SQS, and its dead-letter queue (the sender's only; the dispatcher never dead-letters). */
export function sqsDeliveryQueue(queueUrl: string, deadLetterQueueUrl?: string, client = tracedClient(new SQSClient({ maxAttempts: 3 }))): DeliveryQueue & RetryControl {
  return {
    async send(messages: readonly DeliveryMessage[]) {
      for (let start = 0; start < messages.length; start += BATCH) {
        const entries = messages.slice(start, start + BATCH).map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) }));
        const { Failed = [] } = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
        // A partly failed batch fails the stream batch: the records are read again and the sends repeated.
        if (Failed.length > 0) throw new Error(`SQS refused ${Failed.length} of ${entries.length} delivery messages: ${Failed[0]?.Code ?? 'unknown'}`);
      }
    },
    async retryAfter(receiptHandle: string, delayMs: number) {
      const seconds = Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.ceil(delayMs / 1000)));
      await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
    },
    async deadLetter(body: string) {
      if (!deadLetterQueueUrl) throw new Error('No dead-letter queue configured for webhook deliveries');
      await client.send(new SendMessageCommand({ QueueUrl: deadLetterQueueUrl, MessageBody: body }));
    },
  };
}
