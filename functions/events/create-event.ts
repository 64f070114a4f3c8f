import { createEvent } from '../../shared/events/events-service.js';
import { implement } from '../../shared/http/operation.js';
import { eventsRoutes } from '../../shared/http/routes/events.js';

export const createEventOperation = implement(eventsRoutes.createEvent, async ({ workspaceId, body }) => ({
  data: await createEvent(workspaceId, body),
}));
