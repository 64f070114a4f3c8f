import * as z from 'zod';
import { ID_PATTERN } from '../ids.js';

/** Shared building blocks for route schemas. Each also documents itself in the OpenAPI document. */

export const errorDetailSchema = z.object({
  path: z.string().meta({ description: 'Offending input, e.g. `elements[3].options`.' }),
  message: z.string(),
});

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Stable machine-readable code, e.g. `validation_failed`.' }),
      message: z.string().meta({ description: 'Human-readable explanation.' }),
      details: z.unknown().optional().meta({ description: 'For `validation_failed` and `invalid_query`: `[{path, message}]`.' }),
    }),
  })
  .meta({ id: 'ErrorEnvelope', description: 'Every `/v1` error body.' });

/** A service-minted id: 24 lowercase hex characters. */
export const idSchema = z.string().regex(ID_PATTERN, 'must be a 24-character lowercase hex id').meta({ example: '6740f1a2c3d4e5f601234567' });

/** Path parameters object for routes addressed by ids: `idParams('formId', 'elementId')`. */
export function idParams<const K extends string>(...names: K[]): z.ZodObject<Record<K, typeof idSchema>> {
  const shape = Object.fromEntries(names.map((name) => [name, idSchema])) as Record<K, typeof idSchema>;
  return z.object(shape);
}

/** A non-negative-integer query parameter with bounds and a default. Query values arrive as strings. */
export function intQuery(options: { min: number; max: number; default: number; description?: string }) {
  return z
    .string()
    .regex(/^-?\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(options.min).max(options.max))
    .optional()
    .transform((value) => value ?? options.default)
    .meta({ description: options.description, override: { type: 'integer', minimum: options.min, maximum: options.max, default: options.default } });
}

export const directionSchema = z.enum(['asc', 'desc']);

/**
 * Query schema of a generic list (spec "Generic list pagination convention"): `page` (default 0),
 * `limit` (1..100, default 20), `sort` (resource-specific), `direction` (default `asc`), plus filters.
 * Unknown query parameters are rejected so that typos do not silently return unfiltered data.
 */
export function listQuery<const S extends readonly [string, ...string[]], F extends z.ZodRawShape>(
  sortFields: S,
  defaultSort: S[number],
  filters: F,
) {
  return z.strictObject({
    page: intQuery({ min: 0, max: 9_007_199_254_740_991, default: 0, description: 'Zero-based page index.' }),
    limit: intQuery({ min: 1, max: 100, default: 20, description: 'Items per page, 1..100.' }),
    sort: z.enum(sortFields).default(defaultSort),
    direction: directionSchema.default('asc'),
    ...filters,
  });
}

/** Response schema of a generic list. `total` is the number of items on this page (spec). */
export function listResponse<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int().meta({ description: 'Number of items in `data`.' }),
    hasMore: z.boolean(),
  });
}

/** `{data: T}` wrapper used by every single-resource response. */
export function dataResponse<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}

/** Money: integer minor units (cents), never a float. */
export const moneySchema = z.number().int().min(-9_007_199_254_740_991).max(9_007_199_254_740_991);

/** UTC ISO 8601 timestamp ending in `Z`, optional fractional seconds. */
export const dateTimeSchema = z.iso.datetime({ offset: false });
