import { getEventsByIds, getProductsByIds } from '../events/events-repository.js';
import { blobUrls } from '../blob-store/index.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { getFormNames, getFormSummaries, type FormSummary } from '../forms/forms-repository.js';
import { CHECKOUT_ROUND_TRIP, checkoutSchema, type CheckoutView, type CreateCheckoutBody, type ListCheckoutsQuery, type UpdateCheckoutBody } from '../http/routes/checkouts.js';
import { newId } from '../ids.js';
import { checkEchoed, dropEchoed } from '../model/round-trip.js';
import { resolveImageReferences } from '../images/images-service.js';
import type { CheckoutRecord } from './checkout-entity.js';
import { effectiveSort, isSelected, pageOf, productsCountOf, sortCheckouts, type DisplayNames } from './checkout-listing.js';
import {
  applyCheckoutPatch, checkoutReferenceProblems, checkoutShapeProblems, referencedProductIds, withFeeIds, type CheckoutDraft,
} from './checkout-rules.js';
import * as repository from './checkouts-repository.js';

/** Attempts of an update without If-Match before giving up with 409 (each re-reads and re-applies). */
const MAX_WRITE_ATTEMPTS = 5;

function draftOf(record: CheckoutRecord): CheckoutDraft {
  const { id: _id, ownerId: _owner, createdAt: _created, updatedAt: _updated, version: _version, ...draft } = record;
  return draft;
}

type EventSummary = { name: string; image?: string[] };

/** Events and form names already read for a request, reused when presenting its checkouts. */
interface Prefetched {
  events: Map<string, EventSummary>;
  forms: Map<string, string>;
}

const emptyPrefetch = (): Prefetched => ({ events: new Map(), forms: new Map() });

/** What presenting a checkout needs from the request: image URLs of the local blob store depend on it. */
export interface PresentationContext {
  /** API root as the client called it. */
  baseUrl: string;
}

/**
 * Checks the draft, then its references in at most three parallel reads (one BatchGet of products,
 * one of the event, one of the form). `scope` limits the reference checks to what a PATCH changed.
 * Returns what it read, so presenting the result costs no second read.
 */
async function validateDraft(workspaceId: string, draft: CheckoutDraft, scope = { products: true, event: true, form: true }): Promise<Prefetched> {
  const shape = checkoutShapeProblems(draft);
  if (shape.length > 0) throw new ValidationError(shape);
  const checkProducts = scope.products || scope.event;
  const checkEvent = checkProducts && draft.eventId !== undefined;
  const checkForm = scope.form && draft.orderFormId !== undefined;
  const [products, events, forms] = await Promise.all([
    checkProducts ? getProductsByIds(workspaceId, referencedProductIds(draft)) : new Map(),
    checkEvent ? getEventsByIds(workspaceId, [draft.eventId as string]) : new Map<string, EventSummary>(),
    checkForm ? getFormSummaries(workspaceId, [draft.orderFormId as string]) : new Map<string, FormSummary>(),
  ]);
  const form = draft.orderFormId !== undefined ? forms.get(draft.orderFormId) : undefined;
  const problems = checkoutReferenceProblems(
    { ...draft, products: checkProducts ? draft.products : [], eventId: checkEvent ? draft.eventId : undefined, orderFormId: checkForm ? draft.orderFormId : undefined },
    { products, eventExists: draft.eventId !== undefined && events.has(draft.eventId), formExists: form !== undefined, formType: form?.type },
  );
  if (problems.length > 0) throw new ValidationError(problems);
  return { events, forms: new Map([...forms].map(([id, summary]) => [id, summary.name])) };
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

export async function createCheckout(workspaceId: string, sent: CreateCheckoutBody, context: PresentationContext, now = new Date()): Promise<CheckoutView> {
  // A GET body is taken as a copy: its id, owner, dates, version and computed fields are not this checkout's.
  const body = dropEchoed(sent, CHECKOUT_ROUND_TRIP);
  const draft: CheckoutDraft = { ...body, products: withFeeIds(body.products) };
  const prefetched = await validateDraft(workspaceId, draft);
  const timestamp = now.toISOString();
  const record: CheckoutRecord = { ...draft, id: newId(now), ownerId: workspaceId, createdAt: timestamp, updatedAt: timestamp, version: 1 };
  // The answer is built before the write: once committed, nothing may fail the request.
  const [view] = await presentCheckouts(workspaceId, [record], context, prefetched);
  await repository.insertCheckout(workspaceId, record);
  return view as CheckoutView;
}

async function findOrThrow(workspaceId: string, checkoutId: string): Promise<CheckoutRecord> {
  const record = await repository.findCheckout(workspaceId, checkoutId);
  if (!record) throw new NotFoundError('Checkout');
  return record;
}

export async function getCheckout(workspaceId: string, checkoutId: string, context: PresentationContext): Promise<CheckoutView> {
  const [view] = await presentCheckouts(workspaceId, [await findOrThrow(workspaceId, checkoutId)], context);
  return view as CheckoutView;
}

/**
 * Runs a read-modify-write at the version read. With `If-Match` a moved version is a 409 at once;
 * without it the change is re-applied to the fresh record, so no concurrent update is lost.
 */
async function withVersionRetry<R>(workspaceId: string, checkoutId: string, ifMatch: number | undefined, write: (current: CheckoutRecord) => Promise<R>): Promise<R> {
  for (let attempt = 1; ; attempt += 1) {
    const current = await findOrThrow(workspaceId, checkoutId);
    if (ifMatch !== undefined && current.version !== ifMatch) throw new repository.CheckoutVersionConflictError();
    try {
      return await write(current);
    } catch (error) {
      if (!(error instanceof repository.CheckoutVersionConflictError) || ifMatch !== undefined || attempt >= MAX_WRITE_ATTEMPTS) throw error;
    }
  }
}

export async function updateCheckout(workspaceId: string, checkoutId: string, sent: UpdateCheckoutBody, context: PresentationContext & { ifMatch?: number }): Promise<CheckoutView> {
  const { ifMatch } = context;
  const view = await withVersionRetry(workspaceId, checkoutId, ifMatch, async (current) => {
    // A GET body sent back: its read-only fields must be the stored ones, its `version` the current one.
    const patch = checkEchoed(current, sent, CHECKOUT_ROUND_TRIP);
    const changes: Record<string, unknown> = { ...patch, ...(patch.products ? { products: withFeeIds(patch.products) } : {}) };
    const scope = { products: patch.products !== undefined, event: patch.eventId !== undefined, form: patch.orderFormId !== undefined };
    const draft = applyCheckoutPatch(draftOf(current), changes);
    const prefetched = await validateDraft(workspaceId, draft, scope);
    if (Object.values(patch).every((value) => value === undefined)) return (await presentCheckouts(workspaceId, [current], context, prefetched))[0];
    const next: CheckoutRecord = { ...draft, id: current.id, ownerId: current.ownerId, createdAt: current.createdAt, updatedAt: new Date().toISOString(), version: current.version + 1 };
    // The answer is built before the write: once committed, nothing may fail the request.
    const [presented] = await presentCheckouts(workspaceId, [next], context, prefetched);
    await repository.replaceCheckout(workspaceId, next, current.version);
    return presented;
  });
  return view as CheckoutView;
}

/** Soft delete: afterwards the checkout is 404 and absent from lists. */
export async function deleteCheckout(workspaceId: string, checkoutId: string, ifMatch?: number): Promise<void> {
  await withVersionRetry(workspaceId, checkoutId, ifMatch, async (current) => {
    await repository.softDeleteCheckout(workspaceId, current, new Date().toISOString());
    return undefined;
  });
}

/** Events or forms of every selected checkout, for sorting by display name (one BatchGet per 100 ids). */
async function prefetchFor(workspaceId: string, records: readonly CheckoutRecord[], field: 'event' | 'form'): Promise<Prefetched> {
  if (field === 'event') {
    return { events: await getEventsByIds(workspaceId, records.flatMap((record) => (record.eventId ? [record.eventId] : []))), forms: new Map() };
  }
  return { events: new Map(), forms: await getFormNames(workspaceId, records.flatMap((record) => (record.orderFormId ? [record.orderFormId] : []))) };
}

/**
 * One page of the workspace's checkouts. Reads every live checkout of the workspace (one Query),
 * filters and sorts in memory, then resolves names for the page only, except when sorting by
 * `event`/`form`, which needs the names of every match first.
 */
export async function listCheckouts(workspaceId: string, query: ListCheckoutsQuery, context: PresentationContext): Promise<{ data: CheckoutView[]; hasMore: boolean; pageNumber: number; pageSize: number }> {
  const all = await repository.listLiveCheckouts(workspaceId);
  const selected = all.filter((record) => isSelected(record, query));
  const { field, direction } = effectiveSort(query);
  const known = field === 'event' || field === 'form' ? await prefetchFor(workspaceId, selected, field) : emptyPrefetch();
  const names: DisplayNames = {
    events: new Map([...known.events].map(([id, event]) => [id, event.name])),
    forms: known.forms,
  };
  const { items, hasMore } = pageOf(sortCheckouts(selected, field, direction, names), query.pageNumber, query.pageSize);
  const data = await presentCheckouts(workspaceId, items, context, known);
  return { data, hasMore, pageNumber: query.pageNumber, pageSize: query.pageSize };
}
