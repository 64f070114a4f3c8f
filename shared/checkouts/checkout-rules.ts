import type { ErrorDetail } from '../errors.js';
import { newId } from '../ids.js';
import type { CheckoutDraft, CreateCheckoutBody } from './checkout-model.js';

export type { CheckoutDraft };

type Product = CheckoutDraft['products'][number];

/** Where a referenced product is found: its event. */
export interface ProductOwner {
  eventId: string;
}

/** What the reference checks need to know about the workspace. */
export interface WorkspaceReferences {
  products: ReadonlyMap<string, ProductOwner>;
  eventExists: boolean;
  formExists: boolean;
  /** Type of the referenced form, when it exists: a checkout collects buyer data with an order form. */
  formType?: 'standalone' | 'order';
  /**
   * Product ids the stored checkout already holds (same event, or none now): kept without a check, since
   * an event may drop a product a checkout still lists, and its GET body must still go back as a PATCH.
   */
  held?: ReadonlySet<string>;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function dependentProblems(product: Product, at: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  product.dependents.forEach((dependent, index) => {
    const path = `${at}.dependents[${index}]`;
    if (dependent.productId === product.productId) problems.push({ path: `${path}.productId`, message: 'a product cannot depend on itself' });
    if (seen.has(dependent.productId)) problems.push({ path: `${path}.productId`, message: 'duplicate dependent product' });
    seen.add(dependent.productId);
    if (dependent.minPerOrder !== undefined && dependent.maxPerOrder !== undefined && dependent.minPerOrder > dependent.maxPerOrder) {
      problems.push({ path: `${path}.minPerOrder`, message: 'must not exceed maxPerOrder' });
    }
    // Only what a mode needs is checked: a field with no effect in the current mode (`price` when
    // `free`, `pwycMin` unless `pwyc`) is kept as sent, never refused (API.md "Round trips and
    // references"), so a client can switch modes back and forth without re-entering its values.
    if (dependent.priceMode === 'paid' && !(dependent.price !== undefined && dependent.price > 0)) {
      problems.push({ path: `${path}.price`, message: 'a paid dependent needs a price above 0 (cents)' });
    }
    // Fee ids let clients refer to one fee across updates, so two fees of a dependent cannot share one.
    const feeIds = new Set<string>();
    dependent.customFees.forEach((fee, feeIndex) => {
      if (fee.id !== undefined && feeIds.has(fee.id)) problems.push({ path: `${path}.customFees[${feeIndex}].id`, message: 'duplicate fee id in this dependent' });
      if (fee.id !== undefined) feeIds.add(fee.id);
      const feePath = `${path}.customFees[${feeIndex}].rate`;
      if (fee.isFixedValue && !Number.isInteger(fee.rate)) problems.push({ path: feePath, message: 'a fixed fee is an integer amount in cents' });
      if (!fee.isFixedValue && fee.rate > 100) problems.push({ path: feePath, message: 'a percentage fee is at most 100' });
    });
  });
  return problems;
}

/** Rules that need nothing but the checkout itself (duplicates, ranges, consistent pricing). */
export function checkoutShapeProblems(draft: CheckoutDraft): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  draft.products.forEach((product, index) => {
    const at = `products[${index}]`;
    if (seen.has(product.productId)) problems.push({ path: `${at}.productId`, message: 'duplicate product in this checkout' });
    seen.add(product.productId);
    problems.push(...dependentProblems(product, at));
  });
  if (draft.availableFrom && draft.availableTo && Date.parse(draft.availableFrom) > Date.parse(draft.availableTo)) {
    problems.push({ path: 'availableTo', message: 'must not be before availableFrom' });
  }
  if (draft.availabilityTimezone !== undefined && !isTimeZone(draft.availabilityTimezone)) {
    problems.push({ path: 'availabilityTimezone', message: 'must be an IANA time zone such as Europe/Paris' });
  }
  if (draft.paymentMethods && new Set(draft.paymentMethods).size !== draft.paymentMethods.length) {
    problems.push({ path: 'paymentMethods', message: 'must not repeat a method' });
  }
  if (draft.maxTicketsPerSet !== undefined && draft.maxTicketsPerOrder !== undefined && draft.maxTicketsPerSet > draft.maxTicketsPerOrder) {
    problems.push({ path: 'maxTicketsPerSet', message: 'must not exceed maxTicketsPerOrder' });
  }
  return problems;
}

/** Every product id the checkout references, dependents included. */
export function referencedProductIds(draft: CheckoutDraft): string[] {
  return [...new Set(draft.products.flatMap((product) => [product.productId, ...product.dependents.map((dependent) => dependent.productId)]))];
}

/**
 * Product ids of `stored` a PATCH keeps without checking them again: all it references, as long as
 * the draft keeps its event or drops it (unbound, a product need only have existed when it was
 * added). Another `eventId` re-checks every product against the new event.
 */
export function heldProductIds(stored: CheckoutDraft, draft: CheckoutDraft): ReadonlySet<string> {
  const keepsItsEvent = draft.eventId === undefined || draft.eventId === stored.eventId;
  return new Set(keepsItsEvent ? referencedProductIds(stored) : []);
}

/**
 * Rules against the workspace's data: products exist among its events (and belong to `eventId` when
 * set, so a checkout bound to an event sells that event), the event and the order form exist.
 * Products in `references.held` are not checked (a PATCH keeps what the checkout already holds).
 */
export function checkoutReferenceProblems(draft: CheckoutDraft, references: WorkspaceReferences): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (draft.eventId !== undefined && !references.eventExists) problems.push({ path: 'eventId', message: 'no such event in this workspace' });
  if (draft.orderFormId !== undefined && !references.formExists) problems.push({ path: 'orderFormId', message: 'no such form in this workspace' });
  if (draft.orderFormId !== undefined && references.formExists && references.formType !== undefined && references.formType !== 'order') {
    problems.push({ path: 'orderFormId', message: 'must be an order form (type "order"), not a standalone form' });
  }
  const check = (productId: string, path: string) => {
    if (references.held?.has(productId)) return;
    const owner = references.products.get(productId);
    if (!owner) problems.push({ path, message: 'no such product among this workspace\'s events' });
    else if (draft.eventId !== undefined && references.eventExists && owner.eventId !== draft.eventId) {
      problems.push({ path, message: 'the product belongs to another event than eventId' });
    }
  };
  draft.products.forEach((product, index) => {
    check(product.productId, `products[${index}].productId`);
    product.dependents.forEach((dependent, dependentIndex) => check(dependent.productId, `products[${index}].dependents[${dependentIndex}].productId`));
  });
  return problems;
}

/** Custom fees get a stable id so clients can refer to them across updates. */
export function withFeeIds(products: CreateCheckoutBody['products']): CheckoutDraft['products'] {
  return products.map((product) => ({
    ...product,
    dependents: product.dependents.map((dependent) => ({
      ...dependent,
      customFees: dependent.customFees.map((fee) => ({ ...fee, id: fee.id ?? newId() })),
    })),
  }));
}

