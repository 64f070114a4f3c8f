import { describe, expect, it } from 'vitest';
import { describeLocation, eventImage, eventLink, formatDateRange, formatMoney, formatPriceRange, safeHttpUrl } from '../../../widget/src/format.js';

describe('formatMoney', () => {
  it('formats integer minor units in the locale, without float rounding', () => {
    // Assess
    expect(formatMoney(4_500, 'USD', 'en-US')).toBe('$45.00');
    expect(formatMoney(12_005, 'CAD', 'fr-CA')).toBe('120,05\u00a0$');
    expect(formatMoney(7, 'USD', 'en-US')).toBe('$0.07');
    expect(formatMoney(900_719_925_474_099, 'USD', 'en-US')).toBe('$9,007,199,254,740.99');
    expect(formatMoney(-150, 'USD', 'en-US')).toBe('-$1.50');
  });

  it('uses the currency\'s own minor unit', () => {
    // Assess
    expect(formatMoney(1_500, 'JPY', 'en-US')).toBe('¥1,500');
  });
});

describe('formatPriceRange', () => {
  it('gives one price, a range, or Free', () => {
    // Assess
    expect(formatPriceRange({ minPrice: 4_500, maxPrice: 12_000, currency: 'USD' }, 'en-US')).toBe('$45.00 – $120.00');
    expect(formatPriceRange({ minPrice: 1_000, maxPrice: 1_000, currency: 'CAD' }, 'en-CA')).toBe('$10.00');
    expect(formatPriceRange({ minPrice: 0, maxPrice: 0 }, 'en-US')).toBe('Free');
    expect(formatPriceRange({}, 'en-US')).toBeUndefined();
  });
});

describe('formatDateRange', () => {
  it('formats in the given time zone, collapsing a same-day range', () => {
    // Act
    const text = formatDateRange('2027-06-01T22:00:00Z', '2027-06-02T03:00:00Z', 'en-US', 'America/Toronto');
    // Assess
    expect(text).toMatch(/^Jun 1, 2027, 6:00\s?(PM)?\s?–\s?11:00\sPM$/);
    expect(text).not.toContain('Jun 2');
  });

  it('shows the start alone when the end is missing or not after it', () => {
    // Assess
    expect(formatDateRange('2027-06-01T22:00:00Z', 'nope', 'en-US', 'UTC')).toMatch(/^Jun 1, 2027, 10:00\s?PM$/);
    expect(formatDateRange('bad', '2027-06-01T22:00:00Z', 'en-US', 'UTC')).toBe('');
  });
});

describe('links, images and places', () => {
  it('keeps only http(s) URLs', () => {
    // Assess
    expect(safeHttpUrl('https://example.com/a')).toBe('https://example.com/a');
    expect(safeHttpUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeHttpUrl('6740f1a2c3d4e5f601234567')).toBeUndefined();
  });

  it('links the event by redirectUrl, else the page template, else its online link', () => {
    // Assess
    expect(eventLink({ id: 'e1', redirectUrl: 'https://tickets.example/e1' }, 'https://p.example/{id}')).toBe('https://tickets.example/e1');
    expect(eventLink({ id: 'a b' }, 'https://p.example/events/{id}')).toBe('https://p.example/events/a%20b');
    expect(eventLink({ id: 'e1', virtualEventLink: 'https://meet.example/x' })).toBe('https://meet.example/x');
    expect(eventLink({ id: 'e1' }, 'javascript:{id}')).toBeUndefined();
  });

  it('takes the first image that is a URL', () => {
    // Assess
    expect(eventImage({ image: ['6740f1a2c3d4e5f601234567', 'https://cdn.example/a.png'] })).toBe('https://cdn.example/a.png');
    expect(eventImage({})).toBeUndefined();
  });

  it('describes an open-shaped location in one line', () => {
    // Assess
    expect(describeLocation({ location: { name: 'Harbourfront', city: 'Toronto', lat: 43.6 } })).toBe('Harbourfront, Toronto');
    expect(describeLocation({ locationPlaceholder: 'Secret venue' })).toBe('Secret venue');
    expect(describeLocation({ virtualEventLink: 'https://meet.example/x' })).toBe('Online');
    expect(describeLocation({})).toBeUndefined();
  });
});
