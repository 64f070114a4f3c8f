import * as z from 'zod';
import {
  EVENT_SORT_FIELDS, createEventBodySchema, eventSchema, eventStatusSchema, eventVisibilitySchema, updateEventBodySchema,
} from '../../events/event-model.js';
import { defineRoute } from '../route.js';
import { cursorListQuery, cursorListResponse, dataResponse, idParams } from '../schemas.js';
import { lazy } from '../../model/lazy-schema.js';

export const eventListQuerySchema = lazy(() => cursorListQuery(EVENT_SORT_FIELDS, 'createdAt', {
  status: eventStatusSchema.optional().meta({ description: 'Only events with this status.' }),
  visibility: eventVisibilitySchema.optional().meta({ description: 'Only events with this visibility.' }),
}));
export type EventListQuery = z.infer<typeof eventListQuerySchema>;


export const eventsRoutes = {
  createEvent: defineRoute({
    group: 'events',
    operation: 'createEvent',
    method: 'POST',
    path: '/v1/events',
    auth: 'key',
    tags: ['Events'],
    summary: 'Create an event',
    description: 'Products get minted ids. `minPrice`/`maxPrice` are computed from required products only (0/0 when none is required).',
    body: createEventBodySchema,
    success: { status: 201, description: 'The created event.', schema: lazy(() => dataResponse(eventSchema)) },
    errors: [400, 401, 403, 409, 422],
  }),
  listEvents: defineRoute({
    group: 'events',
    operation: 'listEvents',
    method: 'GET',
    path: '/v1/events',
    auth: 'key',
    tags: ['Events'],
    summary: 'List events',
    description: 'Generic list; `total` is the number of items on this page. Every sort and filter is served by an index: a page costs the same at any depth.',
    query: eventListQuerySchema,
    success: { status: 200, description: 'One page of events.', schema: lazy(() => cursorListResponse(eventSchema)) },
    errors: [400, 401, 403],
  }),
  getEvent: defineRoute({
    group: 'events',
    operation: 'getEvent',
    method: 'GET',
    path: '/v1/events/{id}',
    auth: 'key',
    tags: ['Events'],
    summary: 'Get an event',
    params: lazy(() => idParams('id')),
    success: { status: 200, description: 'The event.', schema: lazy(() => dataResponse(eventSchema)) },
    errors: [401, 403, 404],
  }),
  updateEvent: defineRoute({
    ifMatch: true,
    group: 'events',
    operation: 'updateEvent',
    method: 'PATCH',
    path: '/v1/events/{id}',
    auth: 'key',
    tags: ['Events'],
    summary: 'Update an event',
    description: 'Partial update.',
    params: lazy(() => idParams('id')),
    body: updateEventBodySchema,
    success: { status: 200, description: 'The updated event.', schema: lazy(() => dataResponse(eventSchema)) },
    errors: [400, 401, 403, 404, 409, 422],
  }),
};

