import { blobUrls } from '../blob-store/index.js';
import { getEventsByIds } from '../events/events-repository.js';
import { getFormNames } from '../forms/form-summaries.js';
import { resolveImageReferences } from '../images/images-service.js';
import { checkoutSchema, productsCountOf, type CheckoutRecord, type CheckoutView } from './checkout-model.js';

/**
 * The checkout as the API returns it: the record plus the fields computed at read time from its
 * event, form and event image (never stored, so a rename shows at once).
 */

export type EventSummary = { name: string; image?: string[] };

/** Events and form names already read for a request, reused when presenting its checkouts. */
export interface Prefetched {
  events: Map<string, EventSummary>;
  forms: Map<string, string>;
}

export const emptyPrefetch = (): Prefetched => ({ events: new Map(), forms: new Map() });

/** What presenting a checkout needs from the request: image URLs of the local blob store depend on it. */
export interface PresentationContext {
  /** API root as the client called it. */
  baseUrl: string;
}

/** The response shape, fields in a stable, documented order (DynamoDB returns attributes in any order). */
function toView(record: CheckoutRecord, event: EventSummary | undefined, eventImage: string | undefined, formName: string | undefined): CheckoutView {
  const full: Record<string, unknown> = {
    ...record,
    products: record.products.map(({ productId, quantity, visibility, dependents }) => ({ productId, quantity, visibility, dependents })),
    productsCount: productsCountOf(record),
    eventName: event?.name,
    eventImage,
    formName,
    isEventSet: record.eventId !== undefined,
  };
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(checkoutSchema.shape)) if (full[key] !== undefined) ordered[key] = full[key];
  return ordered as CheckoutView;
}

/**
 * Adds the computed fields to a set of checkouts with one BatchGet of their distinct events and one
 * of their distinct forms (per 100 ids), skipping what the request already read: never one read per checkout.
 */
export async function presentCheckouts(workspaceId: string, records: readonly CheckoutRecord[], context: PresentationContext, known: Prefetched = emptyPrefetch()): Promise<CheckoutView[]> {
  const missingEvents = [...new Set(records.flatMap((record) => (record.eventId && !known.events.has(record.eventId) ? [record.eventId] : [])))];
  const missingForms = [...new Set(records.flatMap((record) => (record.orderFormId && !known.forms.has(record.orderFormId) ? [record.orderFormId] : [])))];
  const [events, forms] = await Promise.all([
    missingEvents.length > 0 ? getEventsByIds(workspaceId, missingEvents) : new Map<string, EventSummary>(),
    missingForms.length > 0 ? getFormNames(workspaceId, missingForms) : new Map<string, string>(),
  ]);
  const eventOf = (id: string) => known.events.get(id) ?? events.get(id);
  const formOf = (id: string) => known.forms.get(id) ?? forms.get(id);
  // An event image may be an image asset id: one more batch read turns those into download URLs.
  const imageReferences = [...new Set(records.flatMap((record) => {
    const reference = record.eventId ? eventOf(record.eventId)?.image?.[0] : undefined;
    return reference ? [reference] : [];
  }))];
  const imageUrls = imageReferences.length > 0 ? await resolveImageReferences(workspaceId, imageReferences, blobUrls(), context.baseUrl) : new Map<string, string>();
  return records.map((record) => {
    const event = record.eventId ? eventOf(record.eventId) : undefined;
    const imageReference = event?.image?.[0];
    return toView(record, event, imageReference ? imageUrls.get(imageReference) : undefined, record.orderFormId ? formOf(record.orderFormId) : undefined);
  });
}
