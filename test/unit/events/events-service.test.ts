import { describe, expect, it } from 'vitest';
import { applyEventUpdate, priceRange, resolveProducts } from '../../../shared/events/events-service.js';
import { ValidationError } from '../../../shared/errors.js';
import { updateEventBodySchema } from '../../../shared/events/event-model.js';
import { anEvent } from './event-factories.js';

const product = (price: number, required: boolean) => ({ price, required });
const patch = (body: Record<string, unknown>) => updateEventBodySchema.parse(body);

describe('priceRange', () => {
  it('uses required products only', () => {
    expect(priceRange([product(5_000, true), product(100, false), product(12_000, true), product(99_999, false)])).toEqual({ minPrice: 5_000, maxPrice: 12_000 });
  });

  it('is 0/0 without required products', () => {
    expect(priceRange([])).toEqual({ minPrice: 0, maxPrice: 0 });
    expect(priceRange([product(700, false)])).toEqual({ minPrice: 0, maxPrice: 0 });
  });

  it('handles free required tickets and a single product', () => {
    expect(priceRange([product(0, true), product(2_500, true)])).toEqual({ minPrice: 0, maxPrice: 2_500 });
    expect(priceRange([product(1_999, true)])).toEqual({ minPrice: 1_999, maxPrice: 1_999 });
  });
});

describe('resolveProducts', () => {
  it("mints ids and defaults the currency to the event's, else USD", () => {
    const [cad] = resolveProducts([{ name: 'A', price: 1, required: false }], [], 'CAD');
    const [usd] = resolveProducts([{ name: 'B', price: 1, required: false }], [], undefined);
    expect(cad?.id).toMatch(/^[a-f0-9]{24}$/);
    expect(cad?.currency).toBe('CAD');
    expect(usd?.currency).toBe('USD');
  });

  it('keeps known ids and refuses unknown or repeated ones with their paths', () => {
    const existing = anEvent().products;
    const known = existing[0]?.id as string;
    expect(resolveProducts([{ id: known, name: 'Renamed', price: 1, required: true }], existing, undefined)[0]?.id).toBe(known);
    const attempt = () => resolveProducts([
      { id: known, name: 'A', price: 1, required: true },
      { id: known, name: 'B', price: 1, required: true },
      { id: 'ffffffffffffffffffffffff', name: 'C', price: 1, required: true },
    ], existing, undefined);
    expect(attempt).toThrow(ValidationError);
    try {
      attempt();
    } catch (error) {
      expect((error as ValidationError).details.map((detail) => detail.path)).toEqual(['products[1].id', 'products[2].id']);
    }
  });
});

describe('applyEventUpdate', () => {
  it('removes optional fields sent as null and keeps the ones not sent', () => {
    // Prepare
    const event = { ...anEvent(), description: 'Old', tags: ['a'], locationPlaceholder: 'Somewhere' };
    // Act
    const next = applyEventUpdate(event, patch({ description: null, tags: null }));
    // Assess
    expect(next).not.toHaveProperty('description');
    expect(next).not.toHaveProperty('tags');
    expect(next.locationPlaceholder).toBe('Somewhere');
  });

  it('refuses null for required fields', () => {
    expect(updateEventBodySchema.safeParse({ name: null }).success).toBe(false);
    expect(updateEventBodySchema.safeParse({ start: null }).success).toBe(false);
  });

  it('bumps the version, keeps createdAt and recomputes prices when products change', () => {
    // Prepare
    const event = anEvent();
    // Act
    const next = applyEventUpdate(event, patch({ products: [{ name: 'Cheap', price: 1_000, required: true }, { name: 'Dear', price: 3_000, required: true }] }), new Date('2030-02-01T00:00:00Z'));
    // Assess
    expect(next).toMatchObject({ version: 2, createdAt: event.createdAt, updatedAt: '2030-02-01T00:00:00.000Z', minPrice: 1_000, maxPrice: 3_000 });
  });

  it('keeps products and prices when products are not sent', () => {
    const event = anEvent();
    const next = applyEventUpdate(event, patch({ name: 'Renamed' }));
    expect(next.products).toEqual(event.products);
    expect(next).toMatchObject({ name: 'Renamed', minPrice: 9_000, maxPrice: 9_000 });
  });

  it('unlinks the partner with referral_code null', () => {
    const next = applyEventUpdate(anEvent({ referral_code: 'P1' }), patch({ referral_code: null }));
    expect(next).not.toHaveProperty('referral_code');
  });

  it('refuses an end before the (possibly unchanged) start', () => {
    expect(() => applyEventUpdate(anEvent(), patch({ end: '2030-05-01T00:00:00Z' }))).toThrow(ValidationError);
  });
});

describe('image references', () => {
  const pathsOf = (attempt: () => unknown): string[] => {
    try {
      attempt();
    } catch (error) {
      if (error instanceof ValidationError) return error.details.map((detail) => detail.path);
      throw error;
    }
    return [];
  };

  it('takes absolute https/http URLs and image asset ids, and refuses other schemes and free text on their paths', () => {
    // Prepare
    const good = ['https://cdn.example.com/a.png', 'http://example.com/b.jpg', '0123456789abcdef01234567'];
    const bad = ['not a url', 'javascript:alert(1)', ' data:image/png;base64,AAAA', 'file:///etc/passwd', '/relative.png'];

    // Act
    const accepted = pathsOf(() => anEvent({ image: good, images: good }));
    const refused = pathsOf(() => anEvent({ image: [good[0], ...bad], images: [bad[1]] }));

    // Assess
    expect(accepted).toEqual([]);
    expect(refused).toEqual(['image[1]', 'image[2]', 'image[3]', 'image[4]', 'image[5]', 'images[0]']);
  });

  it('judges only the entries an update adds: one the event already held is accepted back', () => {
    // Prepare: an entry stored before references were checked.
    const stored = { ...anEvent(), image: ['poster (see brochure)'] };

    // Act
    const sentBack = pathsOf(() => applyEventUpdate(stored, patch({ image: ['poster (see brochure)', 'https://cdn.example.com/a.png'] })));
    const added = pathsOf(() => applyEventUpdate(stored, patch({ images: ['poster (see brochure)'] })));

    // Assess
    expect(sentBack).toEqual([]);
    expect(added).toEqual(['images[0]']);
  });
});
