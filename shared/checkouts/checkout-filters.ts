import * as z from 'zod';
import { lazy } from '../model/lazy-schema.js';
import { idSchema } from '../model/primitives.js';

/**
 * The `filters` query parameter of `GET /v1/checkouts` (API.md "Checkouts"): a URL-encoded JSON array
 * of `{field, op, value}` conditions, all of which must hold. Each field accepts only the operators
 * and value types that make sense for it, so a malformed filter is a 400, never an empty result.
 */

export const FILTER_FIELDS = ['status', 'visibility', 'eventId', 'timeslotId', 'isEventSet', 'productsCount', 'createdAt', 'updatedAt'] as const;
export const FILTER_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in'] as const;
export const MAX_FILTERS = 20;
const MAX_IN_VALUES = 100;

export type FilterField = (typeof FILTER_FIELDS)[number];
export type FilterOp = (typeof FILTER_OPS)[number];

const equalityOps = lazy(() => z.enum(['eq', 'ne']));
const orderedOps = lazy(() => z.enum(['eq', 'ne', 'gt', 'gte', 'lt', 'lte']));

/** Builds the accepted condition shapes of one field: scalar ops with a scalar, `in` with a non-empty array. */
function conditions<F extends FilterField, O extends z.ZodEnum, V extends z.ZodType>(field: F, ops: O, value: V) {
  return [
    z.strictObject({ field: z.literal(field), op: ops, value }),
    z.strictObject({ field: z.literal(field), op: z.literal('in'), value: z.array(value).min(1).max(MAX_IN_VALUES) }),
  ] as const;
}

const timestamp = lazy(() => z.iso.datetime({ offset: true }).transform((value) => Date.parse(value)));

const conditionSchema = lazy(() => z.union([
  ...conditions('status', equalityOps, z.enum(['open', 'closed'])),
  ...conditions('visibility', equalityOps, z.enum(['private', 'public'])),
  // Checkout event ids are minted ids: a malformed one is a 400 on its condition, like the `eventId` parameter.
  ...conditions('eventId', equalityOps, idSchema),
  ...conditions('timeslotId', equalityOps, z.string().min(1).max(100)),
  ...conditions('isEventSet', equalityOps, z.boolean()),
  ...conditions('productsCount', orderedOps, z.number().int().min(0)),
  ...conditions('createdAt', orderedOps, timestamp),
  ...conditions('updatedAt', orderedOps, timestamp),
]));

export type FilterCondition = z.output<typeof conditionSchema>;

const conditionsSchema = lazy(() => z.array(conditionSchema).max(MAX_FILTERS));

/** Explains a rejected condition better than "invalid union": which part of it is wrong. */
function describeCondition(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'must be an object {field, op, value}';
  const { field, op } = raw as { field?: unknown; op?: unknown };
  if (!FILTER_FIELDS.includes(field as FilterField)) return `field must be one of ${FILTER_FIELDS.join(', ')}`;
  if (!FILTER_OPS.includes(op as FilterOp)) return `op must be one of ${FILTER_OPS.join(', ')}`;
  if (op !== 'in' && op !== 'eq' && op !== 'ne' && ['status', 'visibility', 'eventId', 'timeslotId', 'isEventSet'].includes(field as string)) {
    return `op ${String(op)} does not apply to ${String(field)} (use eq, ne or in)`;
  }
  return `value is not valid for ${String(field)} ${String(op)}`;
}

/**
 * Query-string schema of `filters`: JSON text in, validated conditions out. Failures carry paths such
 * as `filters[1]` so the client knows which condition to fix.
 */
export const filtersQuerySchema = lazy(() => z
  .string()
  .transform((text, ctx): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a URL-encoded JSON array of {field, op, value}' });
      return z.NEVER;
    }
  })
  .transform((parsed, ctx): FilterCondition[] => {
    if (!Array.isArray(parsed)) {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of {field, op, value}' });
      return z.NEVER;
    }
    if (parsed.length > MAX_FILTERS) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_FILTERS} conditions` });
      return z.NEVER;
    }
    const result = conditionsSchema.safeParse(parsed);
    if (result.success) return result.data;
    const failed = new Set(result.error.issues.map((issue) => issue.path[0]).filter((index) => typeof index === 'number'));
    for (const index of failed) ctx.addIssue({ code: 'custom', path: [index], message: describeCondition(parsed[index]) });
    return z.NEVER;
  })
  .meta({
    description: 'URL-encoded JSON array of `{field, op, value}`, all must hold. Fields: `status`, `visibility`, `eventId`, `timeslotId`, `isEventSet` (ops `eq`, `ne`, `in`), `productsCount` (integer), `createdAt`, `updatedAt` (ISO date-time) (ops `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`). `in` takes a non-empty array. Example: `[{"field":"productsCount","op":"gte","value":2}]`.',
    override: { type: 'string' },
  }));

/** The values a filter reads from one checkout (timestamps as epoch milliseconds). */
export interface FilterableCheckout {
  status: string;
  visibility: string;
  eventId?: string;
  timeslotId?: string;
  isEventSet: boolean;
  productsCount: number;
  createdAt: string;
  updatedAt: string;
}

function fieldValue(checkout: FilterableCheckout, field: FilterField): string | number | boolean | undefined {
  if (field === 'createdAt' || field === 'updatedAt') return Date.parse(checkout[field]);
  return checkout[field];
}

function holds(actual: string | number | boolean | undefined, op: FilterOp, expected: unknown): boolean {
  switch (op) {
    case 'eq': return actual === expected;
    case 'ne': return actual !== expected;
    case 'in': return (expected as unknown[]).includes(actual);
    // Ordered ops only reach numeric fields (the schema refuses them elsewhere); an absent value matches none.
    case 'gt': return typeof actual === 'number' && actual > (expected as number);
    case 'gte': return typeof actual === 'number' && actual >= (expected as number);
    case 'lt': return typeof actual === 'number' && actual < (expected as number);
    case 'lte': return typeof actual === 'number' && actual <= (expected as number);
  }
}

/** True when the checkout satisfies every condition. */
export function matchesFilters(checkout: FilterableCheckout, filters: readonly FilterCondition[]): boolean {
  return filters.every((condition) => holds(fieldValue(checkout, condition.field), condition.op, condition.value));
}
