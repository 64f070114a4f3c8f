import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryQueue } from '../../../shared/webhooks/delivery-queue.js';
import { createDispatcher } from '../../../shared/webhooks/dispatcher.js';
import { dispatchedDeliveryId, toEndpointItem, type DeliveryMessage, type StoredEndpoint } from '../../../shared/webhooks/webhook-model.js';

const ddb = mockClient(DynamoDBDocumentClient);
const WS = 'a'.repeat(24);
const EVENT_ID = '6740f1a2c3d4e5f601234567';

function endpoint(id: string, overrides: Partial<StoredEndpoint> = {}): Record<string, unknown> {
  return toEndpointItem(WS, {
    id, url: 'https://hooks.example.com', events: ['*'], status: 'enabled', createdAt: '2027-01-01T00:00:00.000Z', updatedAt: '2027-01-01T00:00:00.000Z',
    secretCiphertext: 'local.v1.x', ...overrides,
  });
}

function insert(image: Record<string, unknown>, sequence: string): DynamoDBRecord {
  return { eventName: 'INSERT', dynamodb: { SequenceNumber: sequence, NewImage: marshall(image, { removeUndefinedValues: true }) as never } };
}

const eventRecord = (sequence = '1') => insert({ entity: 'WebhookEvent', id: EVENT_ID, workspaceId: WS, type: 'invoice.paid', timestamp: '2027-01-01T00:00:00.000Z', body: '{}' }, sequence);

function queue(): DeliveryQueue & { sent: DeliveryMessage[] } {
  const sent: DeliveryMessage[] = [];
  return { sent, send: async (messages) => { sent.push(...messages); } };
}

beforeEach(() => ddb.reset());

describe('webhook dispatcher', () => {
  it('creates one pending delivery per enabled endpoint subscribed to the type, with ids derived from event and endpoint', async () => {
    // Prepare
    const [all, paid, refunds, off] = ['b', 'c', 'd', 'e'].map((letter) => letter.repeat(24)) as [string, string, string, string];
    ddb.on(QueryCommand).resolves({ Items: [
      endpoint(all), endpoint(paid, { events: ['invoice.paid'] }), endpoint(refunds, { events: ['refund.created'] }), endpoint(off, { status: 'disabled' }),
    ] });
    ddb.on(PutCommand).resolves({});
    // Act
    const result = await createDispatcher(queue())({ Records: [eventRecord()] });
    // Assess
    const puts = ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(result.batchItemFailures).toEqual([]);
    expect(puts.map((put) => put.Item?.endpointId).sort()).toEqual([all, paid]);
    for (const put of puts) {
      expect(put.Item).toMatchObject({ entity: 'WebhookDelivery', status: 'pending', attempts: 0, eventId: EVENT_ID, type: 'invoice.paid', id: dispatchedDeliveryId(EVENT_ID, put.Item?.endpointId) });
      expect(put.ConditionExpression).toBe('attribute_not_exists(#pk)');
    }
  });

  it('treats a delivery that already exists (the record read twice) as done', async () => {
    ddb.on(QueryCommand).resolves({ Items: [endpoint('b'.repeat(24))] });
    ddb.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));
    await expect(createDispatcher(queue())({ Records: [eventRecord()] })).resolves.toEqual({ batchItemFailures: [] });
  });

  it('enqueues new pending deliveries, and nothing for other records', async () => {
    // Prepare
    const target = queue();
    const delivery = { entity: 'WebhookDelivery', id: 'f'.repeat(24), workspaceId: WS, endpointId: 'b'.repeat(24), eventId: EVENT_ID, type: 'invoice.paid', status: 'pending', attempts: 0 };
    // Act
    await createDispatcher(target)({ Records: [insert(delivery, '1'), { eventName: 'MODIFY', dynamodb: { SequenceNumber: '2', NewImage: marshall(delivery) as never } }] });
    // Assess
    expect(target.sent).toEqual([{ workspaceId: WS, endpointId: 'b'.repeat(24), deliveryId: 'f'.repeat(24) }]);
  });

  it('reports the first record that failed, so the stream resumes from it', async () => {
    // Prepare
    ddb.on(QueryCommand).rejects(new Error('throttled'));
    const delivery = insert({ entity: 'WebhookDelivery', id: 'f'.repeat(24), workspaceId: WS, endpointId: 'b'.repeat(24), eventId: EVENT_ID, type: 'invoice.paid', status: 'pending', attempts: 0 }, '5');
    // Act
    const result = await createDispatcher(queue())({ Records: [delivery, eventRecord('6'), eventRecord('7')] });
    // Assess
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '6' }] });
  });

  it('fails the deliveries\' records when the queue refuses them', async () => {
    const delivery = insert({ entity: 'WebhookDelivery', id: 'f'.repeat(24), workspaceId: WS, endpointId: 'b'.repeat(24), eventId: EVENT_ID, type: 'invoice.paid', status: 'pending', attempts: 0 }, '9');
    const refusing: DeliveryQueue = { send: async () => { throw new Error('SQS down'); } };
    await expect(createDispatcher(refusing)({ Records: [delivery] })).resolves.toEqual({ batchItemFailures: [{ itemIdentifier: '9' }] });
  });
});
