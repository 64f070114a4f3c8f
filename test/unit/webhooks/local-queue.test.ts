import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalDeliveryQueue } from '../../../bin/local/webhooks/local-queue.js';

const message = { workspaceId: 'w', endpointId: 'e', deliveryId: 'd' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let queue: LocalDeliveryQueue | undefined;
afterEach(async () => queue?.stop());

describe('the local stand-in for the SQS delivery queue', () => {
  it('hands a message to the consumer as an SQS event and deletes it on success', async () => {
    // Prepare
    const events: SQSEvent[] = [];
    queue = new LocalDeliveryQueue({ visibilityTimeoutMs: 50, maxReceiveCount: 5 });
    queue.start(async (event) => { events.push(event); });
    // Act
    await queue.send([message]);
    await sleep(200);
    // Assess
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]?.Records[0]?.body as string)).toEqual(message);
    expect(events[0]?.Records[0]?.attributes.ApproximateReceiveCount).toBe('1');
  });

  it('brings a failed message back after the delay set with retryAfter (ChangeMessageVisibility)', async () => {
    // Prepare
    const seenAt: number[] = [];
    const local = new LocalDeliveryQueue({ visibilityTimeoutMs: 5_000, maxReceiveCount: 5 });
    queue = local;
    local.start(async (event) => {
      const record = event.Records[0]!;
      seenAt.push(Date.now());
      if (seenAt.length > 1) return { batchItemFailures: [] };
      await local.retryAfter(record.receiptHandle, 150);
      return { batchItemFailures: [{ itemIdentifier: record.messageId }] };
    });
    // Act
    await local.send([message]);
    await sleep(500);
    // Assess
    expect(seenAt).toHaveLength(2);
    expect((seenAt[1] as number) - (seenAt[0] as number)).toBeGreaterThanOrEqual(140);
  });

  it('dead-letters a message that keeps failing after maxReceiveCount receives', async () => {
    // Prepare
    let receives = 0;
    queue = new LocalDeliveryQueue({ visibilityTimeoutMs: 10, maxReceiveCount: 3 });
    queue.start(async () => { receives += 1; throw new Error('crash'); });
    // Act
    await queue.send([message]);
    await sleep(300);
    // Assess
    expect(receives).toBe(3);
    expect(queue.deadLetters).toEqual([JSON.stringify(message)]);
  });

  it('dead-letters what the consumer sends there, and deletes the original it let go', async () => {
    // Prepare
    const dead: string[] = [];
    let receives = 0;
    const local = new LocalDeliveryQueue({ visibilityTimeoutMs: 10, maxReceiveCount: 5, onDeadLetter: (body) => dead.push(body) });
    queue = local;
    local.start(async (event) => {
      receives += 1;
      await local.deadLetter(event.Records[0]?.body as string);
    });
    // Act
    await local.send([message]);
    await sleep(200);
    // Assess
    expect(receives).toBe(1);
    expect(local.deadLetters).toEqual([JSON.stringify(message)]);
    expect(dead).toEqual([JSON.stringify(message)]);
  });
});
