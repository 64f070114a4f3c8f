import type { DeliveryMessage } from './webhook-model.js';

/**
 * The hop between the dispatcher and the sender. Deployed it is SQS (with a dead-letter queue); the
 * local server has an in-process stand-in with the same semantics, so the same dispatcher and sender
 * code runs in both.
 */
export interface DeliveryQueue {
  /** Enqueues one message per delivery. */
  send(messages: readonly DeliveryMessage[]): Promise<void>;
}

/**
 * How the sender schedules a retry: the message it is processing becomes visible again after the
 * delay (SQS `ChangeMessageVisibility`), and the sender reports it as failed so it is not deleted.
 */
export interface RetryControl {
  retryAfter(receiptHandle: string, delayMs: number): Promise<void>;
}
