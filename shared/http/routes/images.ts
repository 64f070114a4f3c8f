import * as z from 'zod';
import { MAX_IMAGE_BYTES, MAX_UPLOAD_BYTES } from '../../images/image-limits.js';
import { defineRoute } from '../route.js';
import { IMAGE_CONTENT_TYPES, imageAssetSchema } from '../../images/image-model.js';
import { MAX_IMAGE_DIMENSION } from '../../images/image-header.js';
import { cursorQuery, dataResponse, idParams, idSchema, intQuery, nextCursorSchema, pageNumberQuery, refineCursorPaging } from '../schemas.js';
import { lazy } from '../../model/lazy-schema.js';
import { dateTimeSchema } from '../../model/primitives.js';

export { MAX_IMAGE_BYTES, MAX_UPLOAD_BYTES } from '../../images/image-limits.js';

/** The 413 of the single-request upload, locally and deployed (function and edge rule): where to go instead. */
export const IMAGE_TOO_LARGE_MESSAGE = `An image sent in one request must be at most ${MAX_IMAGE_BYTES} bytes (4 MiB), with a Content-Length header. `
  + 'Upload larger images in two steps: POST /v1/assets/images/uploads, PUT the bytes to the returned upload.url with upload.headers, then POST /v1/assets/images/uploads/{uploadId}/complete.';

const filenameSchema = lazy(() => z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
  .meta({ description: 'Original file name, kept for display.', example: 'poster.png' }));

/**
 * The images list keeps the spec's `page`/`pageSize` and its 422 for bad values, and takes `cursor`
 * like every list (API.md "Deep pages and cursors"). `page` stays undefined when absent so that the
 * combination with `cursor` can be refused.
 */
export const listImagesQuerySchema = lazy(() => z
  .strictObject({
    page: pageNumberQuery('page', 'pageSize'),
    pageSize: intQuery({ min: 1, max: 250, default: 50, description: 'Items per page, 1..250.' }),
    cursor: cursorQuery('page'),
  })
  .superRefine(refineCursorPaging('page', 'pageSize')));

export const imageUploadSchema = lazy(() => z
  .object({
    id: idSchema,
    status: z.enum(['pending', 'completed']),
    filename: z.string(),
    contentType: z.enum(IMAGE_CONTENT_TYPES),
    sizeBytes: z.number().int().positive(),
    upload: z.object({
      method: z.literal('PUT'),
      url: z.string(),
      headers: z.record(z.string(), z.string()).meta({ description: 'Send exactly these (signed: another type or size is a 403).' }),
    }),
    expiresAt: dateTimeSchema,
    imageId: idSchema.nullable(),
    createdAt: dateTimeSchema,
  })
  .meta({ id: 'ImageUpload', description: 'A two-step image upload: PUT the bytes to `upload.url`, then complete it.' }));

export const imagesRoutes = {
  registerImage: defineRoute({
    group: 'images',
    operation: 'registerImage',
    method: 'POST',
    path: '/v1/assets/images',
    auth: 'key',
    tags: ['Image assets'],
    summary: 'Register an image',
    description: 'Raw PNG or JPEG body, at most 4 MiB (larger: 413, use `POST /v1/assets/images/uploads`). The bytes must be the declared type (else 422). '
      + `Width and height are decoded from the header (PNG IHDR first, CRC checked; JPEG SOFn); a corrupt header or a side above ${MAX_IMAGE_DIMENSION} px is 422.`,
    query: lazy(() => z.strictObject({ filename: filenameSchema })),
    queryErrorCode: 'validation_failed',
    rawBody: { contentTypes: IMAGE_CONTENT_TYPES, maxBytes: MAX_IMAGE_BYTES, tooLargeMessage: IMAGE_TOO_LARGE_MESSAGE },
    success: { status: 201, description: 'The registered image.', schema: lazy(() => dataResponse(imageAssetSchema)) },
    errors: [401, 403, 409, 413, 415, 422],
  }),
  createImageUpload: defineRoute({
    group: 'images',
    operation: 'createImageUpload',
    method: 'POST',
    path: '/v1/assets/images/uploads',
    auth: 'key',
    tags: ['Image assets'],
    summary: 'Start a large image upload',
    description: `Step 1 of 2 (images up to 25 MiB): PUT the raw bytes to \`upload.url\` with exactly \`upload.headers\` before \`expiresAt\`, then complete.`,
    body: lazy(() => z.strictObject({
      filename: filenameSchema,
      contentType: z.enum(IMAGE_CONTENT_TYPES),
      sizeBytes: z.number().int().min(1).max(MAX_UPLOAD_BYTES).meta({ description: `Exact size of the image in bytes, at most ${MAX_UPLOAD_BYTES} (25 MiB).`, example: 5_242_880 }),
    })),
    success: { status: 201, description: 'The upload, with the URL and headers for the bytes.', schema: lazy(() => dataResponse(imageUploadSchema)) },
    errors: [401, 403, 422],
  }),
  completeImageUpload: defineRoute({
    group: 'images',
    operation: 'completeImageUpload',
    method: 'POST',
    path: '/v1/assets/images/uploads/{uploadId}/complete',
    auth: 'key',
    tags: ['Image assets'],
    summary: 'Complete a large image upload',
    description: 'Step 2 of 2: the uploaded bytes become an image asset. 409 `invalid_state` before they arrive or when already completed; 422 at `upload` when they are not the declared type or size.',
    params: lazy(() => idParams('uploadId')),
    success: { status: 201, description: 'The registered image.', schema: lazy(() => dataResponse(imageAssetSchema)) },
    errors: [401, 403, 404, 409, 422],
  }),
  listImages: defineRoute({
    group: 'images',
    operation: 'listImages',
    method: 'GET',
    path: '/v1/assets/images',
    auth: 'key',
    tags: ['Image assets'],
    summary: 'List images',
    description: 'Most recently registered first. Out-of-range `page`/`pageSize`, an unknown parameter, `cursor` together with `page`, a page 10,000 items deep or a cursor this list did not issue is 422 `validation_failed`. A cursor page costs the same at any depth; a page number reads every item before it.',
    query: listImagesQuerySchema,
    queryErrorCode: 'validation_failed',
    success: {
      status: 200,
      description: 'One page of images.',
      schema: lazy(() => z.object({
        hasMore: z.boolean(),
        data: z.array(imageAssetSchema),
        nextCursor: nextCursorSchema(),
      }).meta({ id: 'ImageAssetList' })),
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
    params: lazy(() => idParams('id')),
    success: { status: 200, description: 'The image.', schema: lazy(() => dataResponse(imageAssetSchema)) },
    errors: [401, 403, 404],
  }),
};
