import { INDEXES, TABLE_KEYS } from '../db/table-design.js';
import type { Form, FormElement } from './form-schemas.js';

export const FORM_ENTITY = 'Form';
export const FORM_POINTER_ENTITY = 'FormPointer';

/**
 * Sort orders of the forms list, each served by its own key order so that a page costs reads
 * proportional to its depth. The two generic GSIs are overloaded (table-design.ts): their
 * partition values for forms carry a `FORMS_BY_*` prefix that no other entity uses.
 */
export const FORM_LIST_INDEXES = {
  byName: INDEXES.byReferralCode,
  byUpdatedAt: INDEXES.byEventBalance,
} as const;

/** Names sort case-insensitively, like a person reads a list. */
function nameSortKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * Key builders: the only place form keys are spelled.
 * - form: `WS#<ws>#FORM` / `<id>`: the form and ALL its elements are one item (one version to
 *   guard); a Query on the partition lists by creation time (ids are time-ordered).
 * - by name: GSI1 `WS#<ws>#FORMS_BY_NAME` / `<lower(name)>#<id>`.
 * - by last update: GSI2 `WS#<ws>#FORMS_BY_UPDATED` / `<updatedAt>#<id>`.
 * - pointer: `FORM#<id>` / `POINTER`, holding `workspaceId`: the public submit route has no API key,
 *   so it finds the form's workspace from our own data, never from the request.
 */
export const formKeys = {
  partition: (workspaceId: string) => `WS#${workspaceId}#FORM`,
  form: (workspaceId: string, id: string) => ({
    [TABLE_KEYS.partitionKey]: formKeys.partition(workspaceId),
    [TABLE_KEYS.sortKey]: id,
  }),
  byNamePartition: (workspaceId: string) => `WS#${workspaceId}#FORMS_BY_NAME`,
  byUpdatedPartition: (workspaceId: string) => `WS#${workspaceId}#FORMS_BY_UPDATED`,
  pointer: (id: string) => ({
    [TABLE_KEYS.partitionKey]: `FORM#${id}`,
    [TABLE_KEYS.sortKey]: 'POINTER',
  }),
};

/** The pointer item from a form id to its workspace (written with the form, never changed). */
export function toFormPointerItem(workspaceId: string, formId: string): Record<string, unknown> {
  return { ...formKeys.pointer(formId), [TABLE_KEYS.entityType]: FORM_POINTER_ENTITY, workspaceId, formId };
}

/** The stored item: keys, list projections, entity type and the form (elements without `propertyData`). */
export function toFormItem(workspaceId: string, form: Form): Record<string, unknown> {
  return {
    ...formKeys.form(workspaceId, form.id),
    [TABLE_KEYS.entityType]: FORM_ENTITY,
    [FORM_LIST_INDEXES.byName.partitionKey]: formKeys.byNamePartition(workspaceId),
    [FORM_LIST_INDEXES.byName.sortKey]: `${nameSortKey(form.name)}#${form.id}`,
    [FORM_LIST_INDEXES.byUpdatedAt.partitionKey]: formKeys.byUpdatedPartition(workspaceId),
    [FORM_LIST_INDEXES.byUpdatedAt.sortKey]: `${form.updatedAt}#${form.id}`,
    ...form,
    elements: form.elements.map(stripReadOnly),
  };
}

function stripReadOnly(element: FormElement): FormElement {
  const { propertyData: _never, ...rest } = element as FormElement & { propertyData?: unknown };
  return rest as FormElement;
}

/** Maps a stored item back to the public shape. */
export function fromFormItem(item: Record<string, unknown>): Form {
  return {
    id: item.id as string,
    name: item.name as string,
    ...(typeof item.nameHidden === 'boolean' ? { nameHidden: item.nameHidden } : {}),
    ownerId: item.ownerId as string,
    status: item.status as Form['status'],
    type: item.type as Form['type'],
    isEventForm: item.isEventForm as boolean,
    elements: (item.elements ?? []) as FormElement[],
    rows: (item.rows ?? []) as Form['rows'],
    attendeeRowsStart: item.attendeeRowsStart as number,
    submitButtonText: item.submitButtonText as string,
    submitButtonWidth: item.submitButtonWidth as Form['submitButtonWidth'],
    ...(typeof item.submitButtonAlign === 'string' ? { submitButtonAlign: item.submitButtonAlign as 'left' | 'center' } : {}),
    version: item.version as number,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
