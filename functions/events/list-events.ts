import { listResult } from '../../shared/db/query.js';
import { listEvents } from '../../shared/events/events-service.js';
import { implement } from '../../shared/http/operation.js';
import { eventsRoutes } from '../../shared/http/routes/events.js';

export const listEventsOperation = implement(eventsRoutes.listEvents, async ({ workspaceId, query }) => {
  const { page = 0, limit, cursor, ...filter } = query;
  const request = { page, limit, cursor };
  return listResult(await listEvents(workspaceId, filter, request), request);
});
