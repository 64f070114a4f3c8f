import { legacyListResult as listResult } from '../../shared/db/legacy-query.js';
import { listEvents } from '../../shared/events/events-repository.js';
import { implement } from '../../shared/http/operation.js';
import { eventsRoutes } from '../../shared/http/routes/events.js';

export const listEventsOperation = implement(eventsRoutes.listEvents, async ({ workspaceId, query }) => {
  const { items, hasMore } = await listEvents(workspaceId, query);
  return listResult(items, query.page, query.limit, hasMore);
});
