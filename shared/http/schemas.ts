import * as z from 'zod';
import { idSchema } from '../model/primitives.js';
import { lazy } from '../model/lazy-schema.js';

export { dateTimeSchema, idSchema, moneySchema } from '../model/primitives.js';

/** Shared building blocks for route schemas. Each also documents itself in the OpenAPI document. */

export const errorDetailSchema = lazy(() => z.object({
  path: z.string().meta({ description: 'Offending input, e.g. `elements[3].options`.' }),
  message: z.string(),
}));

export const errorEnvelopeSchema = lazy(() => z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Stable machine-readable code, e.g. `validation_failed`.' }),
      message: z.string().meta({ description: 'Human-readable explanation.' }),
      details: z.unknown().optional().meta({ description: 'For `validation_failed` and `invalid_query`: `[{path, message}]`.' }),
    }),
  })
  .meta({ id: 'ErrorEnvelope', description: 'Every `/v1` error body.' }));

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

export const directionSchema = lazy(() => z.enum(['asc', 'desc']));

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

/** Deepest position a page number may reach (API.md "Deep pages and cursors"); deeper reads take `cursor`. */
export const MAX_PAGE_DEPTH = 10_000;

/** Descriptions of the cursor parameters, shared by every list (also those with a query contract of their own). */
export const PAGE_DOC = `Zero-based page index (default 0); \`page * limit\` must stay below ${MAX_PAGE_DEPTH}: read deeper with \`cursor\`. Not with \`cursor\`.`;
export const CURSOR_DOC = 'Opaque position from the previous page\'s `nextCursor`; one Query per page at any depth. Keep `sort`, `direction` and filters unchanged. Not with `page`.';
export const NEXT_CURSOR_DOC = 'Pass as `cursor` to read the next page (one Query whatever the depth); `null` on the last page.';

/**
 * A zero-based page number that stays undefined when absent, so that its combination with `cursor`
 * can be refused (`refineCursorPaging`). `pageName`/`sizeName` are the list's parameter names.
 */
export function pageNumberQuery(pageName: string, sizeName: string) {
  return z
    .string()
    .regex(/^-?\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(0).max(9_007_199_254_740_991))
    .optional()
    // No `default` in the document (the description gives it): Swagger UI would send it beside a `cursor`.
    .meta({ description: `Zero-based page index (default 0); \`${pageName} * ${sizeName}\` must stay below ${MAX_PAGE_DEPTH}: read deeper with \`cursor\`. Not with \`cursor\`.`, override: { type: 'integer', minimum: 0 } });
}

/** The `cursor` parameter of a list (API.md "Deep pages and cursors"). */
export function cursorQuery(pageName: string, keep = 'every other parameter') {
  return z.string().min(1).max(2048).optional().meta({ description: `Opaque position from the previous page's \`nextCursor\`; one read per page at any depth. Keep ${keep} unchanged. Not with \`${pageName}\`.` });
}

/**
 * The paging rules of a list with cursors: `cursor` and a page number are exclusive, and a page number
 * may not reach 10,000 items deep (the message names `cursor`). For `.superRefine` of the query schema.
 */
export function refineCursorPaging(pageName: string, sizeName: string) {
  return (parsed: Record<string, unknown>, context: z.RefinementCtx): void => {
    const page = parsed[pageName] as number | undefined;
    if (parsed.cursor !== undefined && page !== undefined) {
      context.addIssue({ code: 'custom', path: ['cursor'], message: `cannot be combined with ${pageName}; follow nextCursor alone` });
    } else if ((page ?? 0) * (parsed[sizeName] as number) >= MAX_PAGE_DEPTH) {
      context.addIssue({ code: 'custom', path: [pageName], message: `${pageName} * ${sizeName} must stay below ${MAX_PAGE_DEPTH}; to read deeper, follow nextCursor with the cursor parameter` });
    }
  };
}

/**
 * Query schema of a generic list that also takes `cursor` (API.md "Deep pages and cursors"): `page`
 * and `cursor` are exclusive, and a page number may not reach 10,000 items deep.
 */
export function cursorListQuery<const S extends readonly [string, ...string[]], F extends z.ZodRawShape>(
  sortFields: S,
  defaultSort: S[number],
  filters: F,
  options: { defaultDirection?: 'asc' | 'desc' } = {},
) {
  const defaultDirection = options.defaultDirection ?? 'asc';
  return z.strictObject({
    page: pageNumberQuery('page', 'limit'),
    limit: intQuery({ min: 1, max: 100, default: 20, description: 'Items per page, 1..100.' }),
    cursor: cursorQuery('page', '`sort`, `direction` and filters'),
    sort: z.enum(sortFields).default(defaultSort),
    direction: directionSchema.default(defaultDirection).meta({ description: `Sort direction; default \`${defaultDirection}\`${defaultDirection === 'desc' ? ' (newest first)' : ''}.` }),
    ...filters,
  }).superRefine(refineCursorPaging('page', 'limit'));
}

/** The page number field of a list answer that also takes cursors. */
export const pageAskedFor = () => z.number().int().meta({ description: 'The page number asked for (0 when reading by cursor).' });

/** The `nextCursor` field of every list answer with cursors. */
export const nextCursorSchema = () => z.string().nullable().meta({ description: 'Pass as `cursor` to read the next page (the same cost whatever the depth); `null` on the last page.' });

/** Response schema of a generic list with cursors. */
export function cursorListResponse<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    page: pageAskedFor(),
    limit: z.number().int(),
    total: z.number().int().meta({ description: 'Number of items in `data`.' }),
    hasMore: z.boolean(),
    nextCursor: nextCursorSchema(),
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

