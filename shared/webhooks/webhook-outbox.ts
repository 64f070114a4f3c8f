import { notExists } from '../db/table-design.js';
import { transaction, type Transaction } from '../db/transaction.js';
import { newId } from '../ids.js';
import { eventBody, toEventItem, type WebhookEventType } from './webhook-model.js';

/** An event to announce: its type and the resource as its GET returns it (a refund: as in `payments[].refunds[]`). */
export interface OutboxEvent {
  type: WebhookEventType;
  object: unknown;
}

/**
 * The transactional outbox: the writes of `events`, to be `include`d in the transaction that makes
 * the change they report. Committed together, there is no change without its event and no event
 * without its change; a rolled-back or refused change emits nothing. The table's stream carries
 * each event item to the dispatcher.
 */
export function outboxEvents(workspaceId: string, events: readonly OutboxEvent[], now: Date): Transaction {
  const tx = transaction();
  const timestamp = now.toISOString();
  for (const event of events) {
    const id = newId(now);
    tx.put(toEventItem({ id, type: event.type, workspaceId, timestamp, body: eventBody(id, event.type, timestamp, event.object) }, now), notExists());
  }
  return tx;
}
