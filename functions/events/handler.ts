import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import { createEventOperation } from './create-event.js';
import { getEventOperation } from './get-event.js';
import { listEventsOperation } from './list-events.js';
import { updateEventOperation } from './update-event.js';

export const operations = [createEventOperation, listEventsOperation, getEventOperation, updateEventOperation];
export const handler = createGroupHandler('events', operations, { idempotency: runIdempotent });
