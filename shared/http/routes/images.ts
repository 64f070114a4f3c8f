import * as z from 'zod';
import { defineRoute } from '../route.js';
import { dataResponse, idParams, idSchema, intQuery } from '../schemas.js';

/** Upload limit of one image (API.md "Image assets"). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;

export const imageAssetSchema = z
  .object({
    id: idSchema,
    hostId: z.string().meta({ description: 'Owning host (the workspace id of the API key).' }),
    url: z.string().meta({ description: 'Public download URL of the stored bytes.' }),
    width: z.number().int().positive().meta({ description: 'Pixels, read from the image header.' }),
    height: z.number().int().positive().meta({ description: 'Pixels, read from the image header.' }),
    contentType: z.enum(IMAGE_CONTENT_TYPES),
    sizeBytes: z.number().int().min(0),
    filename: z.string().meta({ description: 'Original file name, as given in `?filename=`.' }),
    purpose: z.enum(['content']).meta({ description: 'Hint for which UI surfaces the image; always `content` for now.' }),
    createdAt: z.number().int().meta({ description: 'Epoch milliseconds.' }),
    lastPublishedAt: z.number().int().nullable().meta({ description: 'Epoch milliseconds of the last publication to external consumers; null if never.' }),
  })
  .meta({ id: 'ImageAsset', description: 'A registered image. All fields are always present.' });

export type ImageAsset = z.infer<typeof imageAssetSchema>;

const filenameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters')
  .meta({ description: 'Original file name, kept for display.', example: 'poster.png' });

export const imagesRoutes = {
  registerImage: defineRoute({
    group: 'images',
    operation: 'registerImage',
    method: 'POST',
    path: '/v1/assets/images',
    auth: 'key',
    tags: ['Image assets'],
    summary: 'Register an image',
    description: 'The body is the raw image (`Content-Type: image/png` or `image/jpeg`, at most 5 MiB). The bytes must really be PNG or JPEG (file signature) and match the declared type, else 422; width and height are read from the image. The returned `url` downloads the bytes.',
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
    description: 'Most recently registered first. Out-of-range `page`/`pageSize` (or an unknown parameter) is 422 `validation_failed`. A page reads `(page + 1) * pageSize + 1` items at most.',
    query: z.strictObject({
      page: intQuery({ min: 0, max: 9_007_199_254_740_991, default: 0, description: 'Zero-based page index.' }),
      pageSize: intQuery({ min: 1, max: 250, default: 50, description: 'Items per page, 1..250.' }),
    }),
    queryErrorCode: 'validation_failed',
    success: {
      status: 200,
      description: 'One page of images.',
      schema: z.object({ hasMore: z.boolean(), data: z.array(imageAssetSchema) }).meta({ id: 'ImageAssetList' }),
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
