import { updateEvent } from '../../shared/events/events-service.js';
import { implement } from '../../shared/http/operation.js';
import { eventsRoutes } from '../../shared/http/routes/events.js';

export const updateEventOperation = implement(eventsRoutes.updateEvent, async ({ workspaceId, params, body, ifMatch }) => ({
  data: await updateEvent(workspaceId, params.id, body, ifMatch),
}));
