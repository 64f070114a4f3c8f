import { randomBytes } from 'node:crypto';
import type { CheckoutRecord, ListNames } from '../../../shared/checkouts/checkout-model.js';
import { insertCheckout } from '../../../shared/checkouts/checkouts-repository.js';

export interface SeedCheckoutOptions {
  /** Fields of the i-th checkout (0-based), over the defaults. */
  fields?: (index: number) => Partial<CheckoutRecord>;
  /** Event and form names its projections are keyed with (the real write reads them). */
  names?: (index: number) => ListNames;
  /** Creation time of the first checkout (epoch ms). */
  startMs?: number;
  /** Milliseconds between two creations (default 1). */
  stepMs?: number;
}

/**
 * Seeds `count` checkouts for a workspace straight through the repository, each written the way the
 * API writes it (the checkout and its list projections in one transaction), without the reference
 * checks: list costs depend on the stored items only. Returns the records in creation order.
 */
export async function seedCheckouts(workspaceId: string, count: number, options: SeedCheckoutOptions = {}): Promise<CheckoutRecord[]> {
  const start = options.startMs ?? Date.now();
  const records: CheckoutRecord[] = [];
  // Ids in creation order, as the service's were before their tail became random: ties in a sort
  // break by id, so a page holds the same checkouts on every run (its computed-field reads too).
  const run = randomBytes(4).toString('hex');
  for (let index = 0; index < count; index += 1) {
    const created = new Date(start + index * (options.stepMs ?? 1));
    const seconds = Math.floor(created.getTime() / 1000).toString(16).padStart(8, '0');
    const record: CheckoutRecord = {
      id: `${seconds}${run}${index.toString(16).padStart(8, '0')}`, ownerId: workspaceId, name: `Checkout ${index}`, status: 'open', visibility: 'private', products: [],
      createdAt: created.toISOString(), updatedAt: created.toISOString(), version: 1,
      ...options.fields?.(index),
    };
    await insertCheckout(workspaceId, record, options.names?.(index) ?? {});
    records.push(record);
  }
  return records;
}

/**
 * A deterministic spread of list-relevant fields for the i-th checkout (no event or form): status
 * alternates, a third are public, every fifth has timeslot `slot-x`, 0-3 products, two thirds have a
 * description, and updates are shuffled relative to creation.
 */
export function checkoutShape(index: number): Partial<CheckoutRecord> {
  return {
    name: `Checkout ${(index * 37) % 101} ${index}`,
    ...(index % 3 === 0 ? {} : { description: `Description ${(index * 11) % 13}` }),
    status: index % 2 === 1 ? 'closed' : 'open',
    visibility: index % 3 === 0 ? 'public' : 'private',
    ...(index % 5 === 0 ? { timeslotId: 'slot-x' } : {}),
    products: Array.from({ length: index % 4 }, (_, product) => ({ productId: String(product).padStart(24, 'a'), visibility: 'visible' as const, dependents: [] })),
  };
}
