import * as z from 'zod';
import { defineRoute } from '../route.js';
import { IMAGE_CONTENT_TYPES, imageAssetSchema } from '../../images/image-model.js';
import { MAX_IMAGE_DIMENSION } from '../../images/image-header.js';
import { dataResponse, idParams, intQuery, MAX_PAGE_DEPTH } from '../schemas.js';

/** Upload limit of one image (API.md "Image assets"). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const filenameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters')
  .meta({ description: 'Original file name, kept for display.', example: 'poster.png' });

/**
 * The images list keeps the spec's `page`/`pageSize` and its 422 for bad values, and takes `cursor`
 * like every list (API.md "Deep pages and cursors"). `page` stays undefined when absent so that the
 * combination with `cursor` can be refused.
 */
export const listImagesQuerySchema = z
  .strictObject({
    page: z
      .string()
      .regex(/^-?\d+$/, 'must be an integer')
      .transform(Number)
      .pipe(z.number().int().min(0).max(9_007_199_254_740_991))
      .optional()
      .meta({ description: `Zero-based page index (default 0); \`page * pageSize\` must stay below ${MAX_PAGE_DEPTH}: read deeper with \`cursor\`. Not with \`cursor\`.`, override: { type: 'integer', minimum: 0, default: 0 } }),
    pageSize: intQuery({ min: 1, max: 250, default: 50, description: 'Items per page, 1..250.' }),
    cursor: z.string().min(1).max(2048).optional().meta({ description: 'Opaque position from the previous page\'s `nextCursor`; one Query per page at any depth. Not with `page`.' }),
  })
  .superRefine((query, context) => {
    if (query.cursor !== undefined && query.page !== undefined) {
      context.addIssue({ code: 'custom', path: ['cursor'], message: 'cannot be combined with page; follow nextCursor alone' });
    } else if ((query.page ?? 0) * query.pageSize >= MAX_PAGE_DEPTH) {
      context.addIssue({ code: 'custom', path: ['page'], message: `page * pageSize must stay below ${MAX_PAGE_DEPTH}; to read deeper, follow nextCursor with the cursor parameter` });
    }
  });

export const imagesRoutes = {
  registerImage: defineRoute({
    group: 'images',
    operation: 'registerImage',
    method: 'POST',
    path: '/v1/assets/images',
    auth: 'key',
    tags: ['Image assets'],
    summary: 'Register an image',
    description: 'The body is the raw image (`Content-Type: image/png` or `image/jpeg`, at most 5 MiB). The bytes must really be PNG or JPEG (file signature) and match the declared type, else 422. '
      + 'Width and height are decoded from the image header as a decoder reads it: the PNG IHDR chunk (which must come first, with valid field values and a matching CRC) '
      + `or the JPEG frame header (SOFn, found by walking the marker segments from SOI); a corrupt or truncated header, or a width or height above ${MAX_IMAGE_DIMENSION} pixels, is 422. The returned \`url\` downloads the bytes.`,
    query: z.strictObject({ filename: filenameSchema }),
    queryErrorCode: 'validation_failed',
    rawBody: { contentTypes: IMAGE_CONTENT_TYPES, maxBytes: MAX_IMAGE_BYTES },
    success: { status: 201, description: 'The registered image.', schema: dataResponse(imageAssetSchema) },
    errors: [401, 403, 409, 413, 415, 422],
  }),
  listImages: defineRoute({
    group: 'images',
    operation: 'listImages',
    method: 'GET',
    path: '/v1/assets/images',
    auth: 'key',
    tags: ['Image assets'],
    summary: 'List images',
    description: 'Most recently registered first. Out-of-range `page`/`pageSize`, an unknown parameter, `cursor` together with `page`, a page 10,000 items deep or a cursor this list did not issue is 422 `validation_failed`. A cursor page is one Query of `pageSize + 1` items whatever its depth; a page number reads `(page + 1) * pageSize + 1`.',
    query: listImagesQuerySchema,
    queryErrorCode: 'validation_failed',
    success: {
      status: 200,
      description: 'One page of images.',
      schema: z.object({
        hasMore: z.boolean(),
        data: z.array(imageAssetSchema),
        nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` to read the next page (one Query whatever the depth); `null` on the last page.' }),
      }).meta({ id: 'ImageAssetList' }),
    },
    errors: [401, 403, 422],
  }),
  getImage: defineRoute({
    group: 'images',
    operation: 'getImage',
    method: 'GET',
    path: '/v1/assets/images/{id}',
    auth: 'key',
    tags: ['Image assets'],
    summary: 'Get an image',
    params: idParams('id'),
    success: { status: 200, description: 'The image.', schema: dataResponse(imageAssetSchema) },
    errors: [401, 403, 404],
  }),
};
