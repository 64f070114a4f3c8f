import * as z from 'zod';
import { defineRoute } from '../route.js';
import { CURSOR_DOC, NEXT_CURSOR_DOC, PAGE_DOC } from '../schemas.js';
import { eventSchema } from '../../events/event-model.js';
import { PARTNER_LISTING } from '../../partners/partner-listing-plan.js';
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

/**
 * A query parameter as the document shows it. The service parses the raw query itself (the spec gives a
 * missing referral code its own error and turns every unknown key into a metaData filter), so at the
 * edge each one is an optional string; `override` documents the type and values the service accepts.
 */
const documented = (description: string, override: Record<string, unknown>, param: Record<string, unknown> = {}) =>
  z.string().optional().meta({ description, override, param });
const oneOf = (values: readonly string[]) => ({ type: 'string', enum: values, default: values[0] });

export const partnerListingQuerySchema = lazy(() => z.looseObject({
  // The demo partner `npm start` seeds: "Try it out" lists its events as is.
  referral_code: documented('The partner referral code (missing: 400 `REFERRAL_CODE_REQUIRED`).', { type: 'string' }, { required: true, example: 'DEMO-PARTNER' }),
  // No `default`: Swagger UI would send it beside a `cursor`, which is refused (the description says 0).
  page: documented(PAGE_DOC, { type: 'integer', minimum: 0 }),
  cursor: documented(CURSOR_DOC, { type: 'string' }),
  limit: documented(`Items per page; values above ${PARTNER_LISTING.maxLimit} are clamped to ${PARTNER_LISTING.maxLimit}.`, { type: 'integer', minimum: 1, default: PARTNER_LISTING.defaultLimit }),
  sort: documented('`end` and `createdAt` sort by those fields.', oneOf(PARTNER_LISTING.sorts)),
  direction: documented('Sort direction.', oneOf(PARTNER_LISTING.directions)),
  filter: documented('`upcoming`: end in the future; `past`: ended.', oneOf(PARTNER_LISTING.filters)),
  // Any key not above is a metaData filter; documented as one exploded object (`?city=Montreal`).
  // Example `{}` (no filter): without one, Swagger UI sends placeholder keys that match no event.
  metaData: documented('Any other key is a metaData equality filter, e.g. `?city=Montreal`; all must hold.', { type: 'object', additionalProperties: { type: 'string' } }, { style: 'form', explode: true, example: {} }),
}));

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
      `404 \`NO_EVENTS_FOUND\` (always \`data: []\`, \`total: 0\`, \`page: 0\`, \`limit: ${PARTNER_LISTING.defaultLimit}\`, \`hasMore: false\`), 405 \`METHOD_NOT_ALLOWED\`, 500 \`INTERNAL_SERVER_ERROR\`;`,
      'only a 429 (too many requests from one address, refused before the listing runs) is the `/v1` envelope `rate_limited`.',
      'CORS `*` on every response; successful pages are cacheable for 30 seconds.',
    ].join(' '),
    query: partnerListingQuerySchema,
    success: { status: 200, description: 'One page of events.', schema: partnerListingSchema },
    errors: [400, 404, 500],
  }),
};
