import { getEventsByIds, getProductsByIds } from '../events/events-repository.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { getFormNames } from '../forms/forms-repository.js';
import type { CheckoutView, CreateCheckoutBody, ListCheckoutsQuery, UpdateCheckoutBody } from '../http/routes/checkouts.js';
import { newId } from '../ids.js';
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

/**
 * Checks the draft, then its references in at most three parallel reads (one BatchGet of products,
 * one of the event, one of the form). `scope` limits the reference checks to what a PATCH changed.
 */
async function validateDraft(workspaceId: string, draft: CheckoutDraft, scope = { products: true, event: true, form: true }): Promise<void> {
  const shape = checkoutShapeProblems(draft);
  if (shape.length > 0) throw new ValidationError(shape);
  const checkEvent = (scope.event || scope.products) && draft.eventId !== undefined;
  const [products, events, forms] = await Promise.all([
    scope.products || scope.event ? getProductsByIds(workspaceId, referencedProductIds(draft)) : new Map(),
    checkEvent ? getEventsByIds(workspaceId, [draft.eventId as string]) : new Map(),
    scope.form && draft.orderFormId !== undefined ? getFormNames(workspaceId, [draft.orderFormId]) : new Map(),
  ]);
  const problems = checkoutReferenceProblems(
    { ...draft, products: scope.products || scope.event ? draft.products : [], eventId: checkEvent ? draft.eventId : undefined, orderFormId: scope.form ? draft.orderFormId : undefined },
    { products, eventExists: draft.eventId !== undefined && events.has(draft.eventId), formExists: draft.orderFormId !== undefined && forms.has(draft.orderFormId) },
  );
  if (problems.length > 0) throw new ValidationError(problems);
}

/**
 * Adds the computed fields to a set of checkouts with one BatchGet of their distinct events and one
 * of their distinct forms (per 100 ids): never one read per checkout.
 */
export async function presentCheckouts(workspaceId: string, records: readonly CheckoutRecord[], known?: DisplayNames): Promise<CheckoutView[]> {
  const eventIds = [...new Set(records.flatMap((record) => (record.eventId ? [record.eventId] : [])))];
  const formIds = [...new Set(records.flatMap((record) => (record.orderFormId ? [record.orderFormId] : [])))];
  const [events, formNames] = await Promise.all([
    eventIds.length > 0 ? getEventsByIds(workspaceId, eventIds) : new Map(),
    known ? known.forms : formIds.length > 0 ? getFormNames(workspaceId, formIds) : new Map<string, string>(),
  ]);
  return records.map((record) => {
    const event = record.eventId ? events.get(record.eventId) : undefined;
    const formName = record.orderFormId ? formNames.get(record.orderFormId) : undefined;
    return {
      ...record,
      productsCount: productsCountOf(record),
      ...(event ? { eventName: event.name } : {}),
      ...(event?.image?.[0] ? { eventImage: event.image[0] } : {}),
      ...(formName !== undefined ? { formName } : {}),
      isEventSet: record.eventId !== undefined,
    };
  });
}

export async function createCheckout(workspaceId: string, body: CreateCheckoutBody, now = new Date()): Promise<CheckoutView> {
  const draft: CheckoutDraft = { ...body, products: withFeeIds(body.products) };
  await validateDraft(workspaceId, draft);
  const timestamp = now.toISOString();
  const record: CheckoutRecord = { ...draft, id: newId(now), ownerId: workspaceId, createdAt: timestamp, updatedAt: timestamp, version: 1 };
  await repository.insertCheckout(workspaceId, record);
  const [view] = await presentCheckouts(workspaceId, [record]);
  return view as CheckoutView;
}

async function findOrThrow(workspaceId: string, checkoutId: string): Promise<CheckoutRecord> {
  const record = await repository.findCheckout(workspaceId, checkoutId);
  if (!record) throw new NotFoundError('Checkout');
  return record;
}

export async function getCheckout(workspaceId: string, checkoutId: string): Promise<CheckoutView> {
  const [view] = await presentCheckouts(workspaceId, [await findOrThrow(workspaceId, checkoutId)]);
  return view as CheckoutView;
}

/**
 * Runs a read-modify-write at the version read. With `If-Match` a moved version is a 409 at once;
 * without it the change is re-applied to the fresh record, so no concurrent update is lost.
 */
async function withVersionRetry(workspaceId: string, checkoutId: string, ifMatch: number | undefined, write: (current: CheckoutRecord) => Promise<CheckoutRecord | undefined>) {
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

export async function updateCheckout(workspaceId: string, checkoutId: string, patch: UpdateCheckoutBody, ifMatch?: number): Promise<CheckoutView> {
  const changes: Record<string, unknown> = { ...patch, ...(patch.products ? { products: withFeeIds(patch.products) } : {}) };
  const scope = { products: patch.products !== undefined, event: patch.eventId !== undefined, form: patch.orderFormId !== undefined };
  const record = await withVersionRetry(workspaceId, checkoutId, ifMatch, async (current) => {
    const draft = applyCheckoutPatch(draftOf(current), changes);
    await validateDraft(workspaceId, draft, scope);
    if (Object.values(patch).every((value) => value === undefined)) return current;
    const next: CheckoutRecord = { ...draft, id: current.id, ownerId: current.ownerId, createdAt: current.createdAt, updatedAt: new Date().toISOString(), version: current.version + 1 };
    await repository.replaceCheckout(workspaceId, next, current.version);
    return next;
  });
  const [view] = await presentCheckouts(workspaceId, [record as CheckoutRecord]);
  return view as CheckoutView;
}

/** Soft delete: afterwards the checkout is 404 and absent from lists. */
export async function deleteCheckout(workspaceId: string, checkoutId: string, ifMatch?: number): Promise<void> {
  await withVersionRetry(workspaceId, checkoutId, ifMatch, async (current) => {
    await repository.softDeleteCheckout(workspaceId, current, new Date().toISOString());
    return undefined;
  });
}

async function displayNamesFor(workspaceId: string, records: readonly CheckoutRecord[], field: 'event' | 'form'): Promise<DisplayNames> {
  if (field === 'event') {
    const events = await getEventsByIds(workspaceId, [...new Set(records.flatMap((record) => (record.eventId ? [record.eventId] : [])))]);
    return { events: new Map([...events].map(([id, event]) => [id, event.name])), forms: new Map() };
  }
  const forms = await getFormNames(workspaceId, [...new Set(records.flatMap((record) => (record.orderFormId ? [record.orderFormId] : [])))]);
  return { events: new Map(), forms };
}

/**
 * One page of the workspace's checkouts. Reads every live checkout of the workspace (one Query),
 * filters and sorts in memory, then resolves names for the page only, except when sorting by
 * `event`/`form`, which needs the names of every match first.
 */
export async function listCheckouts(workspaceId: string, query: ListCheckoutsQuery): Promise<{ data: CheckoutView[]; hasMore: boolean; pageNumber: number; pageSize: number }> {
  const all = await repository.listLiveCheckouts(workspaceId);
  const selected = all.filter((record) => isSelected(record, query));
  const { field, direction } = effectiveSort(query);
  const names = field === 'event' || field === 'form' ? await displayNamesFor(workspaceId, selected, field) : { events: new Map(), forms: new Map() };
  const { items, hasMore } = pageOf(sortCheckouts(selected, field, direction, names), query.pageNumber, query.pageSize);
  const data = await presentCheckouts(workspaceId, items, field === 'form' ? names : undefined);
  return { data, hasMore, pageNumber: query.pageNumber, pageSize: query.pageSize };
}
