import * as z from 'zod';
import { ID_PATTERN } from '../ids.js';
import { lazy } from './lazy-schema.js';

/**
 * Schema building blocks shared by the domain models (and re-exported to the route files). No HTTP
 * here: models describe data; routes describe requests.
 */

/** A service-minted id: 24 lowercase hex characters. */
// No `example`: Swagger UI would fill every optional id filter with it, and list nothing (the document's
// examples get their ids from examples.ts).
export const idSchema = lazy(() => z.string().regex(ID_PATTERN, 'must be a 24-character lowercase hex id'));

/** The example every date-time message and description gives. */
export const DATE_TIME_EXAMPLE = '2027-06-01T18:00:00Z';

/**
 * The same instant in UTC, ending in `Z`: `2027-06-01T18:00:00+02:00` -> `2027-06-01T16:00:00Z`. The
 * fractional seconds are kept as written (an offset moves whole minutes), so a `Z` input is unchanged.
 */
export function toUtcDateTime(value: string): string {
  if (value.endsWith('Z')) return value;
  const fraction = /\.\d+/.exec(value)?.[0] ?? '';
  return `${new Date(value).toISOString().slice(0, 19)}${fraction}Z`;
}

/**
 * An ISO 8601 date-time with a time zone (API.md "Round trips and references"): `Z` or an offset in,
 * always UTC ending in `Z` out, so stored values sort and compare as strings. Input and output are two
 * schemas of one pipe, so the OpenAPI document describes each side exactly (requests accept offsets,
 * responses only `Z`).
 */
export const dateTimeSchema = lazy(() => z.iso
  .datetime({ offset: true, error: `must be an ISO 8601 date-time with a time zone, e.g. ${DATE_TIME_EXAMPLE} (an offset such as +02:00 is converted to UTC)` })
  .transform(toUtcDateTime)
  .pipe(z.iso.datetime({ offset: false, error: 'must fall between the years 0000 and 9999 once converted to UTC' }))
  .meta({
    id: 'DateTime',
    description: `ISO 8601 date-time, e.g. \`${DATE_TIME_EXAMPLE}\`. Requests may give an offset (\`2027-06-01T18:00:00+02:00\`); it is converted, and every response carries UTC (\`Z\`).`,
    example: DATE_TIME_EXAMPLE,
  }));

/** A versioned resource's version, in every answer alike: 1 at creation, one more per change. */
export const versionSchema = lazy(() => z.number().int().min(1).meta({ id: 'Version', description: 'Optimistic-concurrency version (1 at creation): send it as `If-Match` on updates.' }));

/** Money: integer minor units (cents), never a float. */
export const moneySchema = lazy(() => z.number().int().min(-9_007_199_254_740_991).max(9_007_199_254_740_991));

/** Currencies the platform settles in. */
export const CURRENCIES = ['USD', 'CAD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const currencySchema = lazy(() => z.enum(CURRENCIES));

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

/**
 * True for an absolute `https:`/`http:` URL, parsed as a browser parses an `href` (surrounding
 * whitespace dropped, tabs and newlines removed) so that no spelling of another scheme
 * (`javascript:`, `data:`, `file:`) passes. For references that hosts and partners render as links or images.
 */
export function isWebUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'https:' || protocol === 'http:';
}
