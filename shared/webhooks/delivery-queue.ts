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
 * What the sender does with the message it is processing besides letting it go.
 */
export interface RetryControl {
  /**
   * Schedules a retry: the message becomes visible again after the delay (SQS
   * `ChangeMessageVisibility`), and the sender reports it as failed so it is not deleted.
   */
  retryAfter(receiptHandle: string, delayMs: number): Promise<void>;
  /**
   * Moves the message of a delivery that failed its whole schedule to the dead-letter queue, whose
   * alarm tells operators (deployed: SendMessage to the DLQ; the sender then lets the original go).
   */
  deadLetter(body: string): Promise<void>;
}
