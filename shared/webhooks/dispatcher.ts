import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { entityOf } from '../db/table-design.js';
import { logger } from '../logger.js';
import type { DeliveryQueue } from './delivery-queue.js';
import {
  WEBHOOK_DELIVERY_ENTITY, WEBHOOK_EVENT_ENTITY, dispatchedDeliveryId, fromDeliveryItem, subscribes,
  type DeliveryMessage, type StoredEndpoint, type WebhookEventType,
} from './webhook-model.js';
import { allEndpoints, insertDelivery } from './webhooks-repository.js';

type Item = Record<string, unknown>;

function imageOf(record: DynamoDBRecord): Item | undefined {
  const image = record.dynamodb?.NewImage;
  return image ? unmarshall(image as Record<string, AttributeValue>) : undefined;
}

/**
 * Fans an outbox event out to the workspace's enabled endpoints that subscribe to its type: one
 * delivery item each, with an id derived from event and endpoint, so a record read twice (streams
 * deliver at least once) creates nothing twice. Their INSERTs come back through the stream.
 */
async function fanOut(event: Item, endpointsOf: (workspaceId: string) => Promise<StoredEndpoint[]>, now: Date): Promise<number> {
  const workspaceId = String(event.workspaceId);
  const eventId = String(event.id);
  const type = event.type as WebhookEventType;
  const targets = (await endpointsOf(workspaceId)).filter((endpoint) => subscribes(endpoint, type));
  const created = await Promise.all(targets.map((endpoint) => insertDelivery({
    id: dispatchedDeliveryId(eventId, endpoint.id),
    workspaceId,
    endpointId: endpoint.id,
    eventId,
    type,
    status: 'pending',
    attempts: 0,
    createdAt: now.toISOString(),
  }, now)));
  return created.filter(Boolean).length;
}

/**
 * The stream consumer: outbox events become deliveries, and new deliveries (fanned out here, or
 * redelivered through the API) become queue messages. Writing the delivery first and enqueuing it
 * from its own stream record means a delivery is never lost between the table and the queue: a failed
 * send fails the batch and the record is read again. Reports the first failed record, so the stream
 * resumes from it (every step is idempotent, so the records after it may safely repeat).
 */
export function createDispatcher(queue: DeliveryQueue, clock: () => Date = () => new Date()) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const endpointsByWorkspace = new Map<string, Promise<StoredEndpoint[]>>();
    const endpointsOf = (workspaceId: string) => {
      let endpoints = endpointsByWorkspace.get(workspaceId);
      if (!endpoints) {
        endpoints = allEndpoints(workspaceId);
        endpointsByWorkspace.set(workspaceId, endpoints);
      }
      return endpoints;
    };
    const messages: { message: DeliveryMessage; record: DynamoDBRecord }[] = [];
    const failed: DynamoDBRecord[] = [];
    await Promise.all(event.Records.map(async (record) => {
      const image = imageOf(record);
      if (!image || record.eventName !== 'INSERT') return;
      try {
        if (entityOf(image) === WEBHOOK_EVENT_ENTITY) {
          const deliveries = await fanOut(image, endpointsOf, clock());
          // Debug: most events have no subscriber; each delivery's attempts are logged by the sender.
          if (deliveries > 0) logger.info('webhook event dispatched', { eventId: image.id, type: image.type, workspaceId: image.workspaceId, deliveries });
          else logger.debug('webhook event without subscribers', { eventId: image.id, type: image.type, workspaceId: image.workspaceId });
        } else if (entityOf(image) === WEBHOOK_DELIVERY_ENTITY) {
          const delivery = fromDeliveryItem(image);
          if (delivery.status === 'pending') {
            messages.push({ message: { workspaceId: delivery.workspaceId, endpointId: delivery.endpointId, deliveryId: delivery.id }, record });
          }
        }
      } catch (error) {
        logger.error('webhook dispatch failed', { eventID: record.eventID, error });
        failed.push(record);
      }
    }));
    try {
      await queue.send(messages.map(({ message }) => message));
    } catch (error) {
      logger.error('webhook enqueue failed', { error });
      failed.push(...messages.map(({ record }) => record));
    }
    const first = event.Records.find((record) => failed.includes(record));
    return { batchItemFailures: first?.dynamodb?.SequenceNumber ? [{ itemIdentifier: first.dynamodb.SequenceNumber }] : [] };
  };
}
