import { describe, expect, it } from 'vitest';
import {
  checkoutReferenceProblems, checkoutShapeProblems, heldProductIds, referencedProductIds, withFeeIds, type CheckoutDraft,
} from '../../../shared/checkouts/checkout-rules.js';
import { productEntry } from './factories.js';

function draft(overrides: Partial<CheckoutDraft> = {}): CheckoutDraft {
  return { name: 'Draft', status: 'open', visibility: 'private', products: [], ...overrides };
}

const paths = (problems: { path: string }[]) => problems.map((problem) => problem.path);

describe('checkoutShapeProblems', () => {
  it('accepts a consistent checkout', () => {
    const dependents = [{ productId: 'p2', priceMode: 'pwyc' as const, pwycMin: 100, minPerOrder: 1, maxPerOrder: 2, customFees: [{ id: 'f', name: 'Fee', rate: 250, isFixedValue: true }] }];
    expect(checkoutShapeProblems(draft({ products: [productEntry('p1', dependents)], availabilityTimezone: 'America/Toronto' }))).toEqual([]);
  });

  it('reports duplicate products and self-dependencies', () => {
    const products = [productEntry('p1', [{ productId: 'p1', customFees: [] }]), productEntry('p1')];
    expect(paths(checkoutShapeProblems(draft({ products })))).toEqual(['products[0].dependents[0].productId', 'products[1].productId']);
  });

  it('reports inconsistent dependent pricing and order bounds', () => {
    const products = [productEntry('p1', [
      { productId: 'p2', priceMode: 'paid', customFees: [] },
      { productId: 'p5', minPerOrder: 3, maxPerOrder: 2, customFees: [] },
    ])];
    expect(paths(checkoutShapeProblems(draft({ products })))).toEqual([
      'products[0].dependents[0].price',
      'products[0].dependents[1].minPerOrder',
    ]);
  });

  it('accepts a field that has no effect in the dependent\'s price mode (API.md "Round trips and references")', () => {
    // Prepare
    const products = [productEntry('p1', [
      { productId: 'p2', priceMode: 'paid', price: 100, pwycMin: 5, customFees: [] },
      { productId: 'p3', priceMode: 'free', price: 100, pwycMin: 5, customFees: [] },
      { productId: 'p4', pwycMin: 5, customFees: [] },
    ])];
    // Act
    const problems = checkoutShapeProblems(draft({ products }));
    // Assess
    expect(problems).toEqual([]);
  });

  it('reports fee rates that are not integer cents or above 100 percent', () => {
    const products = [productEntry('p1', [{ productId: 'p2', customFees: [{ id: 'a', name: 'Fixed', rate: 2.5, isFixedValue: true }, { id: 'b', name: 'Pct', rate: 101 }] }])];
    expect(paths(checkoutShapeProblems(draft({ products })))).toEqual(['products[0].dependents[0].customFees[0].rate', 'products[0].dependents[0].customFees[1].rate']);
  });

  it('reports a fee id repeated within one dependent (clients refer to a fee by it), and allows it in another dependent', () => {
    const fee = (id: string) => ({ id, name: 'Fee', rate: 5 });
    const products = [productEntry('p1', [{ productId: 'p2', customFees: [fee('a'), fee('b'), fee('a')] }, { productId: 'p3', customFees: [fee('a')] }])];
    expect(checkoutShapeProblems(draft({ products }))).toEqual([{ path: 'products[0].dependents[0].customFees[2].id', message: 'duplicate fee id in this dependent' }]);
  });

  it('reports an inverted availability window, an unknown time zone, repeated payment methods and per-set above per-order', () => {
    const problems = checkoutShapeProblems(draft({
      availableFrom: '2030-02-01T00:00:00Z', availableTo: '2030-01-01T00:00:00Z', availabilityTimezone: 'Nowhere/City',
      paymentMethods: ['card', 'card'], maxTicketsPerSet: 5, maxTicketsPerOrder: 4,
    }));
    expect(paths(problems)).toEqual(['availableTo', 'availabilityTimezone', 'paymentMethods', 'maxTicketsPerSet']);
  });
});

describe('checkoutReferenceProblems', () => {
  const products = new Map([['p1', { eventId: 'e1' }], ['p2', { eventId: 'e2' }]]);

  it('reports unknown products, dependents, event and form by path', () => {
    const problems = checkoutReferenceProblems(
      draft({ eventId: 'e9', orderFormId: 'f9', products: [productEntry('px', [{ productId: 'py', customFees: [] }])] }),
      { products, eventExists: false, formExists: false },
    );
    expect(paths(problems)).toEqual(['eventId', 'orderFormId', 'products[0].productId', 'products[0].dependents[0].productId']);
  });

  it('requires products of eventId when it is set', () => {
    const problems = checkoutReferenceProblems(draft({ eventId: 'e1', products: [productEntry('p1'), productEntry('p2')] }), { products, eventExists: true, formExists: false });
    expect(problems).toEqual([{ path: 'products[1].productId', message: expect.stringMatching(/another event/) }]);
  });

  it('accepts products of several events when no eventId is set', () => {
    expect(checkoutReferenceProblems(draft({ products: [productEntry('p1'), productEntry('p2')] }), { products, eventExists: false, formExists: false })).toEqual([]);
  });

  it('requires orderFormId to be an order form', () => {
    expect(checkoutReferenceProblems(draft({ orderFormId: 'f1' }), { products, eventExists: false, formExists: true, formType: 'standalone' }))
      .toEqual([{ path: 'orderFormId', message: expect.stringContaining('order form') }]);
    expect(checkoutReferenceProblems(draft({ orderFormId: 'f1' }), { products, eventExists: false, formExists: true, formType: 'order' })).toEqual([]);
  });
});

describe('held products (a PATCH keeps what the checkout already holds)', () => {
  const products = new Map([['p1', { eventId: 'e1' }]]);

  it('are not checked again; new ones are', () => {
    const next = draft({ eventId: 'e1', products: [productEntry('p1'), productEntry('gone', [{ productId: 'new', customFees: [] }])] });
    const problems = checkoutReferenceProblems(next, { products, eventExists: true, formExists: false, held: new Set(['gone']) });
    expect(paths(problems)).toEqual(['products[1].dependents[0].productId']);
  });

  it('are every product of the stored checkout while its event stays or is dropped, none once the event changes', () => {
    const stored = draft({ eventId: 'e1', products: [productEntry('p1', [{ productId: 'p2', customFees: [] }])] });
    const { eventId: _dropped, ...unbound } = stored;
    expect([...heldProductIds(stored, { ...stored, name: 'Renamed' })]).toEqual(['p1', 'p2']);
    expect([...heldProductIds(stored, unbound)]).toEqual(['p1', 'p2']);
    expect([...heldProductIds(stored, { ...stored, eventId: 'e2' })]).toEqual([]);
  });
});

describe('referencedProductIds', () => {
  it('lists products and dependents once each', () => {
    const products = [productEntry('p1', [{ productId: 'p2', customFees: [] }]), productEntry('p2')];
    expect(referencedProductIds(draft({ products }))).toEqual(['p1', 'p2']);
  });
});

describe('withFeeIds', () => {
  it('mints ids for fees without one and keeps given ids', () => {
    const input = { productId: 'p1', visibility: 'visible' as const, dependents: [{ productId: 'p2', customFees: [{ name: 'New', rate: 1 }, { id: 'keep', name: 'Old', rate: 2 }] }] };
    const [product] = withFeeIds([input]);
    const fees = product?.dependents[0]?.customFees;
    expect(fees?.[0]?.id).toMatch(/^[a-f0-9]{24}$/);
    expect(fees?.[1]?.id).toBe('keep');
  });
});
