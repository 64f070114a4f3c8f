/**
 * Pure formatting for the widgets, with no DOM: dates and prices in the viewer's locale (Intl), and
 * the URLs a widget may put in `href`/`src`. Unit-tested in Node, which has the same Intl.
 */

/** What the events widget reads of a partner event (GET /partner/events). */
export interface ListedEvent {
  id?: string;
  name: string;
  start: string;
  end: string;
  currency?: string;
  minPrice?: number;
  maxPrice?: number;
  location?: Record<string, unknown>;
  locationPlaceholder?: string;
  virtualEventLink?: string;
  redirectUrl?: string;
  image?: string[];
  images?: string[];
  isCancelled?: boolean;
}

/** An http(s) URL, or undefined: nothing else goes into an `href` or `src` (no `javascript:`). */
export function safeHttpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** "Jun 1, 2027, 6:00 PM – 11:00 PM" in the viewer's locale and time zone (or the ones given). */
export function formatDateRange(start: string, end: string, locale?: string | string[], timeZone?: string): string {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) });
  const from = new Date(start);
  const to = new Date(end);
  if (Number.isNaN(from.getTime())) return '';
  if (Number.isNaN(to.getTime()) || to.getTime() <= from.getTime()) return format.format(from);
  return format.formatRange(from, to);
}

/**
 * An integer amount in minor units as money in the viewer's locale. The decimal string is cut from
 * the integer's digits (no floating-point arithmetic on the amount); Intl then formats the exact
 * decimal string.
 */
export function formatMoney(minor: number, currency: string, locale?: string | string[]): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  return format.format(minorToDecimal(minor, format.resolvedOptions().maximumFractionDigits ?? 2));
}

function minorToDecimal(minor: number, digits: number): Intl.StringNumericLiteral {
  const sign = minor < 0 ? '-' : '';
  const units = String(Math.abs(Math.trunc(minor))).padStart(digits + 1, '0');
  const decimal = digits === 0 ? units : `${units.slice(0, -digits)}.${units.slice(-digits)}`;
  return `${sign}${decimal}` as Intl.StringNumericLiteral;
}

/** "Free", "$45.00" or "$45.00 – $120.00": the range of the event's required tickets (fees excluded). */
export function formatPriceRange(event: Pick<ListedEvent, 'minPrice' | 'maxPrice' | 'currency'>, locale?: string | string[], free = 'Free'): string | undefined {
  const min = event.minPrice;
  const max = event.maxPrice ?? min;
  if (typeof min !== 'number' || typeof max !== 'number') return undefined;
  if (max === 0) return free;
  const currency = event.currency ?? 'USD';
  const low = formatMoney(min, currency, locale);
  return min === max ? low : `${low} – ${formatMoney(max, currency, locale)}`;
}

const LOCATION_FIELDS = ['name', 'venue', 'address', 'street', 'city', 'region', 'state', 'country'];

/** A one-line place: the location's text fields (its shape is open), else the placeholder, else "Online". */
export function describeLocation(event: Pick<ListedEvent, 'location' | 'locationPlaceholder' | 'virtualEventLink'>, online = 'Online'): string | undefined {
  const parts = LOCATION_FIELDS.map((field) => event.location?.[field])
    .filter((value): value is string => typeof value === 'string' && value.trim() !== '')
    .map((value) => value.trim());
  if (parts.length > 0) return [...new Set(parts)].join(', ');
  if (event.locationPlaceholder) return event.locationPlaceholder;
  return event.virtualEventLink ? online : undefined;
}

/** Where the event's link goes: its `redirectUrl`, else the page's template with `{id}`, else its online link. */
export function eventLink(event: Pick<ListedEvent, 'id' | 'redirectUrl' | 'virtualEventLink'>, template?: string | null): string | undefined {
  const fromTemplate = template && event.id ? template.split('{id}').join(encodeURIComponent(event.id)) : undefined;
  return safeHttpUrl(event.redirectUrl) ?? safeHttpUrl(fromTemplate) ?? safeHttpUrl(event.virtualEventLink);
}

/** The event's first image that is an http(s) URL (image entries may also be asset ids). */
export function eventImage(event: Pick<ListedEvent, 'image' | 'images'>): string | undefined {
  return [...(event.image ?? []), ...(event.images ?? [])].map(safeHttpUrl).find((url) => url !== undefined);
}
