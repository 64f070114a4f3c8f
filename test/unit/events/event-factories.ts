import { buildEvent } from '../../../shared/events/events-service.js';
import { createEventBodySchema, type Event } from '../../../shared/events/event-model.js';

/** A valid event built the way the API builds one, from a create body with overrides. */
export function anEvent(overrides: Record<string, unknown> = {}, now = new Date('2030-01-01T00:00:00Z')): Event {
  const body = createEventBodySchema.parse({
    name: 'Gala',
    start: '2030-06-01T18:00:00Z',
    end: '2030-06-01T23:00:00Z',
    products: [{ name: 'VIP', price: 9_000, required: true }, { name: 'Parking', price: 500 }],
    ...overrides,
  });
  return buildEvent(body, now);
}
