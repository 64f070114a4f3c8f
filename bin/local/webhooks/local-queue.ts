import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { DeliveryQueue, RetryControl } from '../../../shared/webhooks/delivery-queue.js';
import type { DeliveryMessage } from '../../../shared/webhooks/webhook-model.js';

type Consumer = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

interface QueuedMessage {
  id: string;
  body: string;
  receiveCount: number;
  sentAt: number;
  timer?: NodeJS.Timeout;
}

export interface LocalQueueOptions {
  /** When a message comes back after a failure the consumer did not reschedule (SQS: the queue's visibility timeout). */
  visibilityTimeoutMs: number;
  /** Receives before a message goes to the dead-letter list (SQS: the redrive policy). */
  maxReceiveCount: number;
  /** Called with each dead-lettered message (deployed: the DLQ, whose alarm fires). */
  onDeadLetter?: (body: string) => void;
}

/**
 * The local stand-in for the SQS delivery queue, with the semantics the sender relies on: a message is
 * handed to the consumer as an SQS event; reported as failed it comes back after its visibility timeout
 * (as set through `retryAfter`, i.e. ChangeMessageVisibility, or the default); otherwise it is deleted;
 * after `maxReceiveCount` receives it goes to the dead-letter list, as does what the consumer sends
 * there (`deadLetter`, i.e. SendMessage to the DLQ).
 */
export class LocalDeliveryQueue implements DeliveryQueue, RetryControl {
  private readonly messages = new Map<string, QueuedMessage>();
  private readonly visibility = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private consumer: Consumer | undefined;
  private stopped = false;
  readonly deadLetters: string[] = [];

  constructor(private readonly options: LocalQueueOptions) {}

  /** Starts handing messages to the consumer (the sender). */
  start(consumer: Consumer): void {
    this.consumer = consumer;
    for (const id of this.messages.keys()) this.schedule(id, 0);
  }

  async send(messages: readonly DeliveryMessage[]): Promise<void> {
    for (const message of messages) {
      const id = randomUUID();
      this.messages.set(id, { id, body: JSON.stringify(message), receiveCount: 0, sentAt: Date.now() });
      if (this.consumer) this.schedule(id, 0);
    }
  }

  async retryAfter(receiptHandle: string, delayMs: number): Promise<void> {
    this.visibility.set(receiptHandle, delayMs);
  }

  async deadLetter(body: string): Promise<void> {
    this.deadLetters.push(body);
    this.options.onDeadLetter?.(body);
  }

  /** Stops receiving and waits for the attempts in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const message of this.messages.values()) clearTimeout(message.timer);
    await Promise.all([...this.inFlight]);
  }

  private schedule(id: string, delayMs: number): void {
    const message = this.messages.get(id);
    if (!message || this.stopped) return;
    clearTimeout(message.timer);
    message.timer = setTimeout(() => {
      const receiving = this.receive(message).finally(() => this.inFlight.delete(receiving));
      this.inFlight.add(receiving);
    }, delayMs);
  }

  private async receive(message: QueuedMessage): Promise<void> {
    if (this.stopped || !this.consumer) return;
    message.receiveCount += 1;
    if (message.receiveCount > this.options.maxReceiveCount) {
      this.messages.delete(message.id);
      await this.deadLetter(message.body);
      return;
    }
    const receiptHandle = randomUUID();
    const record = {
      messageId: message.id,
      receiptHandle,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:webhook-deliveries',
      awsRegion: 'local',
    } as SQSRecord;
    let failed = true;
    try {
      const result = await this.consumer({ Records: [record] });
      failed = (result?.batchItemFailures ?? []).some((failure) => failure.itemIdentifier === message.id);
    } catch {
      failed = true;
    }
    const delay = this.visibility.get(receiptHandle) ?? this.options.visibilityTimeoutMs;
    this.visibility.delete(receiptHandle);
    if (failed) this.schedule(message.id, delay);
    else this.messages.delete(message.id);
  }
}
