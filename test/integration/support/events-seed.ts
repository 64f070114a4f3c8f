import { createEventBodySchema, type Event } from '../../../shared/events/event-model.js';
import { insertEvent } from '../../../shared/events/events-repository.js';
import { buildEvent } from '../../../shared/events/events-service.js';

const DAY = 86_400_000;

export interface SeedEventsOptions {
  /** Overrides for the i-th event's create body (name, status, visibility, referral_code, metaData, ...). */
  body?: (index: number) => Record<string, unknown>;
  /** Day offset of the i-th event's start from now (default: i days ahead); it lasts one hour. */
  startDays?: (index: number) => number;
  /** The clock the events are written at (default now). */
  now?: Date;
}

/**
 * Seeds `count` events into a workspace straight through the repository (the same items the API
 * writes, without HTTP), for cost tests and the scaling benchmark. Returns them in creation order.
 */
export async function seedEvents(workspaceId: string, count: number, options: SeedEventsOptions = {}): Promise<Event[]> {
  const now = options.now ?? new Date();
  const events: Event[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = new Date(now.getTime() + (options.startDays?.(index) ?? index) * DAY);
    const body = createEventBodySchema.parse({
      name: `Event ${String(index).padStart(4, '0')}`,
      start: start.toISOString(),
      end: new Date(start.getTime() + 3_600_000).toISOString(),
      products: [{ name: 'General', price: 1_000 + index, required: true }],
      ...options.body?.(index),
    });
    // Distinct creation times, in order, so createdAt sorts are deterministic.
    const event = buildEvent(body, new Date(now.getTime() - (count - index) * 1_000));
    await insertEvent(workspaceId, event, { now });
    events.push(event);
  }
  return events;
}
