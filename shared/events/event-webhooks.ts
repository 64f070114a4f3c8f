import type { Transaction } from '../db/transaction.js';
import { outboxEvents } from '../webhooks/webhook-outbox.js';
import { mainEventItem } from './event-listing-model.js';
import { fromEventItem, type Event } from './event-model.js';

/**
 * The webhook events of an event change, for the change's own transaction (`EventWriteOptions.also`):
 * `event.published` when an event is created published or goes from draft to published. The object
 * is the event as GET returns it.
 */
export function eventWebhookEvents(workspaceId: string, before: Event | undefined, after: Event): Transaction {
  const published = after.status === 'published' && before?.status !== 'published';
  const events = published ? [{ type: 'event.published' as const, object: fromEventItem(mainEventItem(workspaceId, after)) }] : [];
  return outboxEvents(workspaceId, events, new Date(after.updatedAt));
}
