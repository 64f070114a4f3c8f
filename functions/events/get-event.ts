import { getEvent } from '../../shared/events/events-service.js';
import { implement } from '../../shared/http/operation.js';
import { eventsRoutes } from '../../shared/http/routes/events.js';

export const getEventOperation = implement(eventsRoutes.getEvent, async ({ workspaceId, params }) => ({
  data: await getEvent(workspaceId, params.id),
}));
