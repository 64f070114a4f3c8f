import { decodeCursor, type CursorScope } from '../db/cursor.js';
import { readModifyWrite } from '../db/read-modify-write.js';
import { InvalidQueryError, NotFoundError, ValidationError } from '../errors.js';
import { getEventsByIds, getProductsByIds } from '../events/events-repository.js';
import { getFormNames, getFormSummaries, type FormSummary } from '../forms/form-summaries.js';
import { newId } from '../ids.js';
import { mergePatch } from '../model/merge-patch.js';
import { checkEchoed, dropEchoed, sameContent } from '../model/round-trip.js';
import type { FilterCondition } from './checkout-filters.js';
import { effectiveSort, isSelected, searchNeedle } from './checkout-listing.js';
import { conditionsOf, planCheckoutList } from './checkout-list-plan.js';
import {
  CHECKOUT_ROUND_TRIP, LIST_SCAN_BUDGET, productsCountOf, type CheckoutDraft, type CheckoutRecord, type CheckoutSortField, type CheckoutStatus, type CheckoutView,
  type CreateCheckoutBody, type ListNames, type StoredCheckout, type UpdateCheckoutBody,
} from './checkout-model.js';
import { emptyPrefetch, presentCheckouts, type EventSummary, type PresentationContext, type Prefetched } from './checkout-presentation.js';
import { checkoutReferenceProblems, checkoutShapeProblems, heldProductIds, referencedProductIds, withFeeIds } from './checkout-rules.js';
import * as listRepository from './checkout-list-repository.js';
import { nameChecksOf } from './checkout-name-checks.js';
import * as repository from './checkouts-repository.js';

export type { PresentationContext };

function draftOf(record: CheckoutRecord): CheckoutDraft {
  const { id: _id, ownerId: _owner, createdAt: _created, updatedAt: _updated, version: _version, ...draft } = record;
  return draft;
}

/**
 * Checks the draft, then its references in at most three parallel reads (one BatchGet of products,
 * one of the event, one of the form). `scope` limits the reference checks to what a PATCH changed,
 * and `held` names the product ids the stored checkout already holds (not checked again).
 * Returns what it read, so presenting the result costs no second read.
 */
async function validateDraft(workspaceId: string, draft: CheckoutDraft, scope = { products: true, event: true, form: true }, held: ReadonlySet<string> = new Set()): Promise<Prefetched> {
  const shape = checkoutShapeProblems(draft);
  if (shape.length > 0) throw new ValidationError(shape);
  const checkProducts = scope.products || scope.event;
  const checkEvent = checkProducts && draft.eventId !== undefined;
  const checkForm = scope.form && draft.orderFormId !== undefined;
  const productIds = checkProducts ? referencedProductIds(draft).filter((productId) => !held.has(productId)) : [];
  const [products, events, forms] = await Promise.all([
    productIds.length > 0 ? getProductsByIds(workspaceId, productIds) : new Map(),
    checkEvent ? getEventsByIds(workspaceId, [draft.eventId as string]) : new Map<string, EventSummary>(),
    checkForm ? getFormSummaries(workspaceId, [draft.orderFormId as string]) : new Map<string, FormSummary>(),
  ]);
  const form = draft.orderFormId !== undefined ? forms.get(draft.orderFormId) : undefined;
  const problems = checkoutReferenceProblems(
    { ...draft, products: checkProducts ? draft.products : [], eventId: checkEvent ? draft.eventId : undefined, orderFormId: checkForm ? draft.orderFormId : undefined },
    { products, eventExists: draft.eventId !== undefined && events.has(draft.eventId), formExists: form !== undefined, formType: form?.type, held },
  );
  if (problems.length > 0) throw new ValidationError(problems);
  return { events, forms: new Map([...forms].map(([id, summary]) => [id, summary.name])) };
}

/**
 * The names of the checkout's event and form, which its list projections are keyed with (sorting by
 * `event`/`form`). Reads what `known` does not hold yet (one BatchGet each) and adds it there.
 */
async function listNamesOf(workspaceId: string, draft: CheckoutDraft, known: Prefetched): Promise<ListNames> {
  const { eventId, orderFormId } = draft;
  const [events, forms] = await Promise.all([
    eventId !== undefined && !known.events.has(eventId) ? getEventsByIds(workspaceId, [eventId]) : new Map<string, EventSummary>(),
    orderFormId !== undefined && !known.forms.has(orderFormId) ? getFormNames(workspaceId, [orderFormId]) : new Map<string, string>(),
  ]);
  events.forEach((event, id) => known.events.set(id, event));
  forms.forEach((name, id) => known.forms.set(id, name));
  const event = eventId !== undefined ? known.events.get(eventId)?.name : undefined;
  const form = orderFormId !== undefined ? known.forms.get(orderFormId) : undefined;
  return { ...(event !== undefined ? { event } : {}), ...(form !== undefined ? { form } : {}) };
}

/** A rename raced with the write: the names read are stale, read them again. */
const renamedMeanwhile = (error: unknown) => error instanceof repository.ListNameChangedError;

export async function createCheckout(workspaceId: string, sent: CreateCheckoutBody, context: PresentationContext, now = new Date()): Promise<CheckoutView> {
  // A GET body is taken as a copy: its id, owner, dates, version and computed fields are not this checkout's.
  const body = dropEchoed(sent, CHECKOUT_ROUND_TRIP);
  const draft: CheckoutDraft = { ...body, products: withFeeIds(body.products) };
  let known = await validateDraft(workspaceId, draft);
  const timestamp = now.toISOString();
  const record: CheckoutRecord = { ...draft, id: newId(now), ownerId: workspaceId, createdAt: timestamp, updatedAt: timestamp, version: 1 };
  // A new checkout has no version to race on; the loop only re-reads names a concurrent rename changed.
  return readModifyWrite({
    resource: 'checkout',
    read: async () => ({ version: 0 }),
    write: async () => {
      const names = await listNamesOf(workspaceId, draft, known);
      // The answer is built before the write: once committed, nothing may fail the request.
      const [view] = await presentCheckouts(workspaceId, [record], context, known);
      try {
        await repository.insertCheckout(workspaceId, record, names, nameChecksOf(workspaceId, record, names));
      } catch (error) {
        if (renamedMeanwhile(error)) known = emptyPrefetch();
        throw error;
      }
      return view as CheckoutView;
    },
    retryOn: renamedMeanwhile,
  });
}

async function findOrThrow(workspaceId: string, checkoutId: string, options: { consistent?: boolean } = {}): Promise<StoredCheckout> {
  const stored = await repository.findCheckout(workspaceId, checkoutId, options);
  if (!stored) throw new NotFoundError('Checkout');
  return stored;
}

/** One checkout, read eventually consistent (half the cost of a strong read; `version` tells what was seen). */
export async function getCheckout(workspaceId: string, checkoutId: string, context: PresentationContext): Promise<CheckoutView> {
  const [view] = await presentCheckouts(workspaceId, [(await findOrThrow(workspaceId, checkoutId)).record], context);
  return view as CheckoutView;
}

/**
 * A partial update through the one optimistic-concurrency loop: with `If-Match` a moved version is a
 * 409; without it the change is re-applied to the fresh record, so no concurrent update is lost.
 */
export async function updateCheckout(workspaceId: string, checkoutId: string, sent: UpdateCheckoutBody, context: PresentationContext & { ifMatch?: number | undefined }): Promise<CheckoutView> {
  return readModifyWrite({
    resource: 'checkout',
    ifMatch: context.ifMatch,
    read: () => findOrThrow(workspaceId, checkoutId, { consistent: true }),
    write: async (current) => {
      // A GET body sent back: its read-only fields must be the stored ones, its `version` the current one,
      // and the fields computed from the checkout itself what a GET answers now. Those read from its
      // event and form are ignored: a rename there changes them without changing the checkout.
      const asRead = { ...current.record, productsCount: productsCountOf(current.record), isEventSet: current.record.eventId !== undefined };
      const patch = checkEchoed(asRead, sent, CHECKOUT_ROUND_TRIP);
      const changes: Record<string, unknown> = { ...patch, ...(patch.products ? { products: withFeeIds(patch.products) } : {}) };
      const scope = { products: patch.products !== undefined, event: patch.eventId !== undefined, form: patch.orderFormId !== undefined };
      const stored = draftOf(current.record);
      const draft = mergePatch(stored, changes);
      // Products the checkout already holds are kept unchecked: their event may have dropped one since.
      const known = await validateDraft(workspaceId, draft, scope, heldProductIds(stored, draft));
      if (sameContent(draft, stored)) return (await presentCheckouts(workspaceId, [current.record], context, known))[0] as CheckoutView;
      const names = await listNamesOf(workspaceId, draft, known);
      const next: CheckoutRecord = {
        ...draft, id: current.record.id, ownerId: current.record.ownerId, createdAt: current.record.createdAt, updatedAt: new Date().toISOString(), version: current.version + 1,
      };
      // The answer is built before the write: once committed, nothing may fail the request.
      const [view] = await presentCheckouts(workspaceId, [next], context, known);
      await repository.replaceCheckout(workspaceId, current, next, names, nameChecksOf(workspaceId, next, names));
      return view as CheckoutView;
    },
    retryOn: renamedMeanwhile,
  });
}

/** Soft delete: afterwards the checkout is 404 and absent from lists. */
export async function deleteCheckout(workspaceId: string, checkoutId: string, ifMatch?: number): Promise<void> {
  await readModifyWrite({
    resource: 'checkout',
    ifMatch,
    read: () => findOrThrow(workspaceId, checkoutId, { consistent: true }),
    write: (current) => repository.softDeleteCheckout(workspaceId, current, new Date().toISOString()),
  });
}

export interface CheckoutListQuery {
  pageNumber?: number | undefined;
  pageSize: number;
  cursor?: string | undefined;
  search?: string | undefined;
  status?: CheckoutStatus | undefined;
  eventId?: string | undefined;
  timeslotId?: string | undefined;
  sortField?: CheckoutSortField | undefined;
  sortDirection?: 'asc' | 'desc' | undefined;
  filters?: FilterCondition[] | undefined;
}

export interface CheckoutListPage {
  data: CheckoutView[];
  hasMore: boolean;
  pageNumber: number;
  pageSize: number;
  nextCursor: string | null;
}

/**
 * One page of the workspace's checkouts (README "Data model", checkouts): the plan picks the list
 * projections that hold the candidates in the requested order; one Query per partition read (a
 * merge of at most 8), then one BatchGet of the page's checkouts and one per 100 of their events,
 * forms and event images. When a condition must be evaluated on the projections, at most
 * LIST_SCAN_BUDGET of them are examined per request and `nextCursor` continues after them.
 */
export async function listCheckouts(workspaceId: string, query: CheckoutListQuery, context: PresentationContext): Promise<CheckoutListPage> {
  const { field, direction } = effectiveSort(query);
  const needle = searchNeedle(query.search);
  const conditions = conditionsOf(query);
  const pageNumber = query.pageNumber ?? 0;
  const scope: CursorScope = {
    owner: workspaceId,
    list: 'checkouts',
    shape: { field, direction, search: needle, status: query.status, eventId: query.eventId, timeslotId: query.timeslotId, filters: query.filters },
  };
  const plan = planCheckoutList({ sortField: field, ascending: direction === 'asc', search: needle, conditions });
  const empty = { data: [], hasMore: false, pageNumber, pageSize: query.pageSize, nextCursor: null };
  if (plan.scopes.length === 0) {
    // Nothing can match; a cursor is still checked, so a forged one is refused the same way.
    if (query.cursor !== undefined) decodeCursor(scope, query.cursor, 2);
    return empty;
  }
  const page = await listRepository.listCheckoutIds(workspaceId, field, direction === 'asc', plan, { page: pageNumber, limit: query.pageSize, cursor: query.cursor }, scope);
  if (page.pageBeyondBudget) {
    throw new InvalidQueryError([{
      path: 'pageNumber',
      message: `this search or filter examines at most ${LIST_SCAN_BUDGET} checkouts per request, which do not reach page ${pageNumber}: read on from page 0 by following nextCursor (cursor)`,
    }]);
  }
  const stored = await listRepository.getCheckoutsByIds(workspaceId, page.items);
  // A checkout changed or deleted between the two reads no longer matches: leave it out.
  const records = page.items.flatMap((id) => stored.get(id)?.record ?? []).filter((record) => isSelected(record, conditions, needle));
  const data = await presentCheckouts(workspaceId, records, context);
  return { data, hasMore: page.hasMore, pageNumber, pageSize: query.pageSize, nextCursor: page.nextCursor };
}
