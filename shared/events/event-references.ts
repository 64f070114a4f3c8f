import { batchGetItems } from '../db/batch-get.js';
import { ValidationError } from '../errors.js';
import { isId } from '../ids.js';
import { eventKeys } from './event-key-model.js';

/**
 * Reference checks (API.md "Round trips and references"): an `eventId` another domain stores (invoice
 * lines, payouts) must name an event of the workspace, else 422 on the field's path. They read keys
 * only and run before any balance or state check, so the client is told about the reference, not about
 * a consequence of it. Kept apart from the event model and repository, so invoices and payouts do not
 * bundle them.
 */

/**
 * Which of `ids` are events of the workspace: one BatchGet per 100 ids of the main items, projected to
 * the id (keys, not events, are read). Strings that are not ids cost no read; another workspace's
 * event is simply not found.
 */
export async function existingEventIds(workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  const candidates = [...new Set(ids)].filter(isId);
  if (candidates.length === 0) return new Set();
  const items = await batchGetItems(candidates.map((id) => eventKeys.event(workspaceId, id)), { attributes: ['id'] });
  return new Set(items.map((item) => String(item.id)));
}

/** One `eventId` found in the request, with the path it was sent at (`lineItems[2].eventId`). */
export interface EventReference {
  path: string;
  eventId: string;
}

/** Every reference names an event of the workspace (one BatchGet per 100 distinct ids), else 422. */
export async function assertEventsExist(workspaceId: string, references: readonly EventReference[]): Promise<void> {
  if (references.length === 0) return;
  const existing = await existingEventIds(workspaceId, references.map((reference) => reference.eventId));
  const unknown = references.filter((reference) => !existing.has(reference.eventId));
  if (unknown.length > 0) {
    throw new ValidationError(unknown.map((reference) => ({ path: reference.path, message: 'must be the id of an event of this workspace' })));
  }
}

/**
 * Runs independent checks together and reports them all: when every failure is a 422, their details
 * are merged into one (a client fixes every reference at once); otherwise the first failure is thrown.
 */
export async function allChecked<T extends readonly unknown[]>(checks: { readonly [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const results = await Promise.allSettled(checks);
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  if (failures.length === 0) return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
  if (failures.every((failure) => failure instanceof ValidationError)) throw new ValidationError(failures.flatMap((failure) => (failure as ValidationError).details));
  throw failures[0];
}
