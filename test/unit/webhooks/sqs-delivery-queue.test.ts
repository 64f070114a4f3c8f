import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { sqsDeliveryQueue } from '../../../shared/webhooks/sqs-delivery-queue.js';

const sqs = mockClient(SQSClient);
const QUEUE = 'https://sqs.eu-west-1.amazonaws.com/1/deliveries';
const DLQ = 'https://sqs.eu-west-1.amazonaws.com/1/deliveries-dlq';
const message = (n: number) => ({ workspaceId: 'w', endpointId: 'e', deliveryId: `d${n}` });

beforeEach(() => sqs.reset());

describe('the SQS delivery queue', () => {
  it('sends deliveries in batches of 10, SQS\'s limit', async () => {
    // Prepare
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    // Act
    await sqsDeliveryQueue(QUEUE, DLQ, new SQSClient({})).send(Array.from({ length: 23 }, (_, n) => message(n)));
    // Assess
    const batches = sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input);
    expect(batches.map((batch) => batch.Entries?.length)).toEqual([10, 10, 3]);
    expect(batches.every((batch) => batch.QueueUrl === QUEUE)).toBe(true);
    expect(JSON.parse(batches[2]?.Entries?.[2]?.MessageBody as string)).toEqual(message(22));
  });

  it('fails when SQS refuses part of a batch, so the stream records are read again', async () => {
    // Prepare
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false }] });
    // Act
    const sending = sqsDeliveryQueue(QUEUE, DLQ, new SQSClient({})).send([message(1)]);
    // Assess
    await expect(sending).rejects.toThrow(/refused 1 of 1/);
  });

  it('schedules a retry as the message\'s visibility timeout, in whole seconds, at most SQS\'s 12 hours', async () => {
    // Prepare
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    const queue = sqsDeliveryQueue(QUEUE, DLQ, new SQSClient({}));
    // Act
    await queue.retryAfter('r1', 29_400);
    await queue.retryAfter('r2', 13 * 60 * 60 * 1000);
    // Assess
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: QUEUE, ReceiptHandle: 'r1', VisibilityTimeout: 30 },
      { QueueUrl: QUEUE, ReceiptHandle: 'r2', VisibilityTimeout: 12 * 60 * 60 },
    ]);
  });

  it('dead-letters a message by sending its body to the dead-letter queue', async () => {
    // Prepare
    sqs.on(SendMessageCommand).resolves({});
    // Act
    await sqsDeliveryQueue(QUEUE, DLQ, new SQSClient({})).deadLetter('{"deliveryId":"d"}');
    // Assess
    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input)).toEqual([{ QueueUrl: DLQ, MessageBody: '{"deliveryId":"d"}' }]);
  });
});
