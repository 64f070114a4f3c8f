import { eventKeys } from '../events/event-model.js';
import { formKeys } from '../forms/form-key-model.js';
import type { CheckoutRecord, ListNames } from './checkout-model.js';
import type { NameCheck } from './checkouts-repository.js';

/**
 * The names a checkout write keys its list projections with, as conditions on the event and form
 * items (checked in the write's transaction; see `NameCheck`). Kept apart from the repository so that
 * the functions that only re-key after a rename do not load the event and form models.
 */
export function nameChecksOf(workspaceId: string, record: CheckoutRecord, names: ListNames): NameCheck[] {
  return [
    ...(record.eventId !== undefined && names.event !== undefined ? [{ key: eventKeys.event(workspaceId, record.eventId), name: names.event }] : []),
    ...(record.orderFormId !== undefined && names.form !== undefined ? [{ key: formKeys.form(workspaceId, record.orderFormId), name: names.form }] : []),
  ];
}
