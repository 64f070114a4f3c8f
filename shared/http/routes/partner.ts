import * as z from 'zod';
import { defineRoute } from '../route.js';
import { CURSOR_DOC, NEXT_CURSOR_DOC, PAGE_DOC } from '../schemas.js';
import { eventSchema } from '../../events/event-model.js';
import { ownerSchema } from '../../partners/partner-model.js';
import { lazy } from '../../model/lazy-schema.js';

const PARTNER_IMAGE_DOC = 'Image URLs: an asset id of the event\'s workspace becomes its URL; other ids are dropped.';

export const partnerEventSchema = lazy(() => eventSchema
  .omit({ version: true })
  .extend({
    image: eventSchema.shape.image.meta({ description: PARTNER_IMAGE_DOC }),
    images: eventSchema.shape.images.meta({ description: PARTNER_IMAGE_DOC }),
    referral_code: z.string(),
    owner: ownerSchema,
  })
  .meta({ id: 'PartnerEvent' }));

export const partnerListingSchema = lazy(() => z
  .object({
    data: z.array(partnerEventSchema),
    status: z.union([z.literal(200), z.literal(404)]),
    error: z.literal('NO_EVENTS_FOUND').optional().meta({ description: 'Only on the 404 without events.' }),
    message: z.string(),
    total: z.number().int().meta({ description: 'Number of events on this page (<= limit).' }),
    page: z.number().int(),
    limit: z.number().int(),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable().optional().meta({ description: NEXT_CURSOR_DOC }),
  })
  .meta({ id: 'PartnerEventList' }));

const text = (description: string) => z.string().optional().meta({ description });

/**
 * Documentation of the query: lazy(() => parsed by the service), not here, because the spec gives a missing
 * referral code its own error and turns every unknown key into a metaData filter.
 */
export const partnerListingQuerySchema = lazy(() => z.looseObject({
  referral_code: text('Required. The partner referral code.'),
  page: text(PAGE_DOC),
  cursor: text(CURSOR_DOC),
  limit: text('Items per page, default 20; values above 100 are clamped to 100.'),
  sort: text('`start` (default) | `end` | `createdAt`.'),
  direction: text('`asc` (default) | `desc`.'),
  filter: text('`all` (default) | `upcoming` (end in the future) | `past`.'),
}).meta({ description: 'Any other key is a metaData equality filter, e.g. `?city=Montreal`.' }));

export const partnerRoutes = {
  listPartnerEvents: defineRoute({
    group: 'partner',
    operation: 'listPartnerEvents',
    method: 'GET',
    path: '/partner/events',
    auth: 'public',
    cors: true,
    errorFormat: 'flat',
    tags: ['Partner'],
    summary: 'Public events of a partner',
    description: [
      'No key. Lists `published` + `public` events whose `referral_code` is the partner\'s, with the partner as `owner`.',
      'Flat body; errors are `{status, error, message}`: 400 `REFERRAL_CODE_REQUIRED`, 400 `INVALID_QUERY`, 404 `PARTNER_NOT_FOUND`,',
      '404 `NO_EVENTS_FOUND` (with `data: []`, `total: 0`, `hasMore: false` and the requested `page`/effective `limit`), 405 `METHOD_NOT_ALLOWED`, 500 `INTERNAL_SERVER_ERROR`.',
      'CORS `*` on every response; successful pages are cacheable for 30 seconds.',
    ].join(' '),
    query: partnerListingQuerySchema,
    success: { status: 200, description: 'One page of events.', schema: partnerListingSchema },
    errors: [400, 404, 500],
  }),
};
