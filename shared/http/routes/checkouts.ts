import * as z from 'zod';
import { filtersQuerySchema } from '../../checkouts/checkout-filters.js';
import {
  CHECKOUT_SORT_FIELDS, CHECKOUT_STATUSES, LIST_SCAN_BUDGET, checkoutSchema, createCheckoutBodySchema, updateCheckoutBodySchema,
} from '../../checkouts/checkout-model.js';
import { defineRoute } from '../route.js';
import { cursorQuery, dataResponse, idParams, idSchema, intQuery, nextCursorSchema, pageAskedFor, pageNumberQuery, refineCursorPaging } from '../schemas.js';
import { lazy } from '../../model/lazy-schema.js';

/**
 * The checkouts list keeps the spec's `pageNumber`/`pageSize` and its 400 `invalid_query`, and takes
 * `cursor` like every list (API.md "Deep pages and cursors"). `pageNumber` stays undefined when absent
 * so that the combination with `cursor` can be refused.
 */
export const listCheckoutsQuerySchema = lazy(() => z
  .strictObject({
    pageNumber: pageNumberQuery('pageNumber', 'pageSize'),
    pageSize: intQuery({ min: 1, max: 200, default: 50, description: 'Items per page, 1..200.' }),
    cursor: cursorQuery('pageNumber'),
    search: z.string().max(200).optional().meta({
      description: `Case-insensitive substring of name or description. Examines at most ${LIST_SCAN_BUDGET} checkouts per request: a page may come back short with \`hasMore: true\` (follow \`nextCursor\`); page numbers reach no further (400).`,
    }),
    status: z.enum(CHECKOUT_STATUSES).optional(),
    eventId: idSchema.optional().meta({ description: 'Only checkouts of this event; a malformed id is 400 `invalid_query`.' }),
    timeslotId: z.string().max(100).optional(),
    sortField: z.enum(CHECKOUT_SORT_FIELDS).optional().meta({ description: 'Default `createdAt`. `event` and `form` sort by the display name of the event or form; `_id` by id (ordered by creation second only). Text sorts ignore case and accents and compare numbers by value; checkouts without the value sort last; ties by id.' }),
    sortDirection: z.enum(['asc', 'desc']).optional().meta({ description: 'Default `asc` when `sortField` is given, else `desc` (newest first).' }),
    filters: filtersQuerySchema.optional(),
  })
  .superRefine(refineCursorPaging('pageNumber', 'pageSize')));

export type ListCheckoutsQuery = z.output<typeof listCheckoutsQuerySchema>;


export const checkoutsRoutes = {
  createCheckout: defineRoute({
    group: 'checkouts',
    operation: 'createCheckout',
    method: 'POST',
    path: '/v1/checkouts',
    auth: 'key',
    tags: ['Checkouts'],
    summary: 'Create a checkout',
    description: 'Every `productId` (also of dependents) must be a product of the workspace\'s events, of `eventId` when it is set; `eventId` and `orderFormId` must be the workspace\'s. Otherwise 422 with the offending path.',
    body: createCheckoutBodySchema,
    success: { status: 201, description: 'The created checkout.', schema: lazy(() => dataResponse(checkoutSchema)) },
    errors: [400, 401, 403, 409, 415, 422],
  }),
  listCheckouts: defineRoute({
    group: 'checkouts',
    operation: 'listCheckouts',
    method: 'GET',
    path: '/v1/checkouts',
    auth: 'key',
    tags: ['Checkouts'],
    summary: 'List checkouts',
    description: `Filters, search and sort apply before paging; every answer carries \`nextCursor\`. Any malformed, out-of-range or unknown parameter, or a cursor this list did not issue, is 400 \`invalid_query\`. Sorts and filters are served by indexes (a page costs the same at any depth); \`search\` and conditions no index serves examine at most ${LIST_SCAN_BUDGET} checkouts per request (a short page with \`hasMore: true\`: follow \`nextCursor\`).`,
    query: listCheckoutsQuerySchema,
    success: {
      status: 200,
      description: 'One page of checkouts.',
      schema: lazy(() => z.object({
        data: z.array(checkoutSchema),
        hasMore: z.boolean().meta({ description: 'More checkouts may follow (with `search` or an evaluated filter, even after a short page).' }),
        pageNumber: pageAskedFor(),
        pageSize: z.number().int(),
        nextCursor: nextCursorSchema(),
      }).meta({ id: 'CheckoutList' })),
    },
    errors: [400, 401, 403],
  }),
  getCheckout: defineRoute({
    group: 'checkouts',
    operation: 'getCheckout',
    method: 'GET',
    path: '/v1/checkouts/{id}',
    auth: 'key',
    tags: ['Checkouts'],
    summary: 'Get a checkout',
    description: 'Wrapped as `{checkout}` (spec). 404 when absent, deleted or another workspace\'s.',
    params: lazy(() => idParams('id')),
    success: { status: 200, description: 'The checkout.', schema: lazy(() => z.object({ checkout: checkoutSchema })) },
    errors: [401, 403, 404],
  }),
  updateCheckout: defineRoute({
    ifMatch: true,
    group: 'checkouts',
    operation: 'updateCheckout',
    method: 'PATCH',
    path: '/v1/checkouts/{id}',
    auth: 'key',
    tags: ['Checkouts'],
    summary: 'Update a checkout',
    description: `Partial update; references it adds follow the create rules, products it already lists stay (unless \`eventId\` moves to another event).`,
    params: lazy(() => idParams('id')),
    body: updateCheckoutBodySchema,
    success: { status: 200, description: 'The updated checkout.', schema: lazy(() => dataResponse(checkoutSchema)) },
    errors: [400, 401, 403, 404, 409, 415, 422],
  }),
  deleteCheckout: defineRoute({
    ifMatch: true,
    group: 'checkouts',
    operation: 'deleteCheckout',
    method: 'DELETE',
    path: '/v1/checkouts/{id}',
    auth: 'key',
    tags: ['Checkouts'],
    summary: 'Delete a checkout',
    description: `Soft delete: the record is kept aside, but GET answers 404 and lists omit it.`,
    params: lazy(() => idParams('id')),
    success: { status: 204, description: 'Deleted.' },
    errors: [401, 403, 404, 409],
  }),
};
