import type { DynamoDBRecord } from 'aws-lambda';
import { TABLE_KEYS } from '../db/table-design.js';
import { WEBHOOK_DELIVERY_ENTITY, WEBHOOK_EVENT_ENTITY } from './webhook-model.js';

/**
 * What the dispatcher reads from the table's stream: INSERTs of outbox events (fan out to endpoints)
 * and of deliveries (enqueue them). Deployed, this is the Lambda event-source filter, so the function
 * is not even invoked for the table's other writes; locally the stream reader applies the same rule.
 */
export const DISPATCHED_ENTITIES = [WEBHOOK_EVENT_ENTITY, WEBHOOK_DELIVERY_ENTITY] as const;

/** The event-source mapping filter pattern (Lambda filter syntax). */
export function dispatchFilterPattern(): Record<string, unknown> {
  return { eventName: ['INSERT'], dynamodb: { NewImage: { [TABLE_KEYS.entityType]: { S: [...DISPATCHED_ENTITIES] } } } };
}

/** The same filter applied to one record. */
export function matchesDispatchFilter(record: DynamoDBRecord): boolean {
  const entity = record.dynamodb?.NewImage?.[TABLE_KEYS.entityType]?.S;
  return record.eventName === 'INSERT' && entity !== undefined && (DISPATCHED_ENTITIES as readonly string[]).includes(entity);
}
