import type { CheckoutRecord } from '../../../shared/checkouts/checkout-model.js';

let counter = 0;

/** A stored checkout with sensible defaults; ids increase with each call (creation order). */
export function checkoutRecord(overrides: Partial<CheckoutRecord> = {}): CheckoutRecord {
  counter += 1;
  const createdAt = new Date(Date.UTC(2030, 0, 1, 0, 0, counter)).toISOString();
  return {
    id: counter.toString(16).padStart(24, '0'),
    ownerId: 'a'.repeat(24),
    name: `Checkout ${counter}`,
    status: 'open',
    visibility: 'private',
    products: [],
    createdAt,
    updatedAt: createdAt,
    version: 1,
    ...overrides,
  };
}

/** A checkout product entry referencing `productId`. */
export function productEntry(productId: string, dependents: CheckoutRecord['products'][number]['dependents'] = []) {
  return { productId, visibility: 'visible' as const, dependents };
}
