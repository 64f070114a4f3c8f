import * as z from 'zod';
import { ID_PATTERN } from '../ids.js';

/**
 * Schema building blocks shared by the domain models (and re-exported to the route files). No HTTP
 * here: models describe data; routes describe requests.
 */

/** A service-minted id: 24 lowercase hex characters. */
export const idSchema = z.string().regex(ID_PATTERN, 'must be a 24-character lowercase hex id').meta({ example: '6740f1a2c3d4e5f601234567' });

/** UTC ISO 8601 timestamp ending in `Z`, optional fractional seconds. */
export const dateTimeSchema = z.iso.datetime({ offset: false });

/** Money: integer minor units (cents), never a float. */
export const moneySchema = z.number().int().min(-9_007_199_254_740_991).max(9_007_199_254_740_991);

/** Currencies the platform settles in. */
export const CURRENCIES = ['USD', 'CAD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const currencySchema = z.enum(CURRENCIES);

/** The sort direction of every list. */
export type SortDirection = 'asc' | 'desc';

/**
 * The fields of `schema`'s shape that `source` holds (absent and `null` ones left out): maps a stored
 * item back to its public object without the design's attributes, or any attribute the model no
 * longer has, and without parsing it again.
 */
export function pickFields<T>(source: Record<string, unknown>, schema: { shape: Record<string, unknown> }): T {
  return Object.fromEntries(Object.keys(schema.shape).flatMap((field) => (source[field] === undefined || source[field] === null ? [] : [[field, source[field]]]))) as T;
}
