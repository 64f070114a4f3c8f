import * as z from 'zod';
import type { PartitionQuery } from '../db/query.js';
import { LIST_ORDER_INDEXES, creationOrderKey, entityAttribute, indexKey, type ItemKey } from '../db/table-design.js';
import { dateTimeSchema, idSchema, versionSchema, pickFields, type SortDirection } from '../model/primitives.js';
import { echoedFields, type RoundTrip } from '../model/round-trip.js';
import { formElementSchema, shortTextSchema, type FormElement } from './form-element-model.js';
import { formKeys } from './form-key-model.js';
import { lazy } from '../model/lazy-schema.js';

/**
 * The form model: the zod schemas of a form (spec "Form") and of the inputs that change it, their
 * types, the keys of every form item and the item <-> object mappers. A form and all its elements
 * are one item (their schemas: form-element-model.ts). Routes compose these; nothing here knows
 * about HTTP.
 */

export const FORM_STATUSES = ['draft', 'active', 'archived'] as const;
export const FORM_TYPES = ['standalone', 'order'] as const;

export const columnSchema = lazy(() => z.strictObject({
  elementIndex: z.number().int().min(0),
  widthFraction: z.number().gt(0).max(1),
}));
export const rowSchema = lazy(() => z.strictObject({ columns: z.array(columnSchema).min(1).max(12) }).meta({ id: 'FormRow' }));
export type FormRow = z.output<typeof rowSchema>;

/** Longest form name, in UTF-16 code units (what zod's `max` counts). */
export const FORM_NAME_MAX_LENGTH = 200;

const formSettings = lazy(() => ({
  name: z.string().trim().min(1).max(FORM_NAME_MAX_LENGTH),
  nameHidden: z.boolean().optional(),
  status: z.enum(FORM_STATUSES),
  submitButtonText: z.string().trim().min(1).max(100),
  submitButtonWidth: z.enum(['auto', 'fill']),
  submitButtonAlign: z.enum(['left', 'center']).optional(),
}));

export const formSchema = lazy(() => z.object({
  id: idSchema,
  ...formSettings,
  ownerId: z.string().meta({ description: 'Workspace (host) that owns the form.' }),
  type: z.enum(FORM_TYPES),
  isEventForm: z.boolean().meta({ description: 'True exactly for `type: order`; immutable.' }),
  elements: z.array(formElementSchema),
  rows: z.array(rowSchema),
  attendeeRowsStart: z.number().int().min(0).meta({ description: 'First row of the ticket-holder section (order forms).' }),
  version: versionSchema,
  createdAt: dateTimeSchema,
  updatedAt: dateTimeSchema,
}).meta({ id: 'Form' }));
export type Form = Omit<z.output<typeof formSchema>, 'elements'> & { elements: FormElement[] };
export type FormStatus = (typeof FORM_STATUSES)[number];

/** Elements as a GET returns them, for comparing with stored ones: `propertyData` is computed on read, never stored. */
function withoutPropertyData(elements: unknown): unknown {
  if (!Array.isArray(elements)) return elements;
  return elements.map((element) => {
    if (typeof element !== 'object' || element === null) return element;
    const { propertyData: _computed, ...rest } = element as Record<string, unknown>;
    return rest;
  });
}

const layoutHint = 'change the layout with PUT /v1/forms/{formId}/layout';

/**
 * What a form's GET returns that `PATCH /v1/forms/{formId}` does not set (API.md "Round trips and
 * references"): elements and layout have their own operations.
 */
export const FORM_ROUND_TRIP: RoundTrip = {
  resource: 'form',
  readOnly: {
    id: undefined, ownerId: undefined, createdAt: undefined,
    elements: 'change elements with the element operations', rows: layoutHint, attendeeRowsStart: layoutHint,
  },
  immutable: ['type', 'isEventForm'],
  derived: ['updatedAt'],
  compareAs: { elements: withoutPropertyData },
};

/** What a create ignores from a GET body (a copy): the server's fields. Elements and layout are copied. */
export const FORM_COPY: RoundTrip = { resource: 'form', readOnly: { id: undefined, ownerId: undefined, createdAt: undefined }, derived: ['updatedAt'] };

export const createFormBodySchema = lazy(() => z.strictObject({
  ...echoedFields(formSchema.shape, FORM_COPY, 'create'),
  isEventForm: z.boolean().optional().meta({ description: 'Follows `type` (true exactly for `order`); another value is 422.' }),
  elements: z.array(formElementSchema).max(1000).optional()
    .meta({ description: 'Elements of a copy (a GET body sent back): created with new ids, `propertyData` ignored. Without `rows`, each gets a full-width row in its section.' }),
  rows: z.array(rowSchema).max(1000).optional().meta({ description: 'Layout of a copy; needs `elements`.' }),
  attendeeRowsStart: z.number().int().min(0).optional().meta({ description: 'With `rows`: the first row of the attendee section (order forms).' }),
  name: formSettings.name,
  type: z.enum(FORM_TYPES),
  nameHidden: z.boolean().optional(),
  submitButtonText: formSettings.submitButtonText.default('Submit'),
  submitButtonWidth: formSettings.submitButtonWidth.default('auto'),
  submitButtonAlign: formSettings.submitButtonAlign,
  status: formSettings.status.default('draft'),
}).meta({ id: 'CreateForm', example: { name: 'Conference registration', type: 'order', submitButtonText: 'Register' } }));

/** Settings; the rest of a GET body is accepted back when unchanged (`FORM_ROUND_TRIP`). */
export const editFormBodySchema = lazy(() => z.strictObject({
  ...echoedFields(formSchema.shape, FORM_ROUND_TRIP, 'update'),
  name: formSettings.name.optional(),
  nameHidden: z.boolean().nullable().optional(),
  status: formSettings.status.optional(),
  submitButtonText: formSettings.submitButtonText.optional(),
  submitButtonWidth: formSettings.submitButtonWidth.optional(),
  submitButtonAlign: z.enum(['left', 'center']).nullable().optional(),
}).meta({ id: 'EditFormSettings' }));
export type EditFormBody = z.output<typeof editFormBodySchema>;

export const layoutBodySchema = lazy(() => z.strictObject({
  rows: z.array(rowSchema).max(1000),
  attendeeRowsStart: z.number().int().min(0),
}).meta({
  id: 'FormLayout',
  example: { rows: [{ columns: [{ elementIndex: 0, widthFraction: 0.5 }, { elementIndex: 1, widthFraction: 0.5 }] }, { columns: [{ elementIndex: 2, widthFraction: 1 }] }], attendeeRowsStart: 0 },
}));

export const duplicateFormBodySchema = lazy(() => z.strictObject({
  name: formSettings.name.optional(),
  status: formSettings.status.optional(),
}).meta({ id: 'DuplicateForm' }));

export const toggleOtherBodySchema = lazy(() => z.discriminatedUnion('enabled', [
  z.strictObject({ enabled: z.literal(true), otherPrompt: shortTextSchema }),
  z.strictObject({ enabled: z.literal(false) }),
]).meta({ id: 'ToggleOther' }));

export const moveElementBodySchema = lazy(() => z.strictObject({ section: z.enum(['buyer', 'attendee']) }).meta({ id: 'MoveElement' }));

export const logicRuleBodySchema = lazy(() => z.strictObject({
  revealedElementId: idSchema,
  condition: z.union([
    z.strictObject({ optionIndices: z.array(z.number().int().min(-1)).min(1), operator: z.enum(['all_of', 'any_of', 'none_of']) }),
    z.strictObject({ selectionType: z.enum(['is', 'is_not']), value: z.boolean() }),
  ], { error: 'must be {optionIndices, operator: "all_of"|"any_of"|"none_of"} (selection source) or {selectionType: "is"|"is_not", value: boolean} (Yes/No source)' }).meta({ description: 'Selection source: `{optionIndices, operator}`; Yes/No source: `{selectionType, value}`.' }),
}).meta({ id: 'AddLogicRule', example: { revealedElementId: '6740f1a2c3d4e5f601234567', condition: { optionIndices: [0, -1], operator: 'any_of' } } }));
export type LogicRuleBody = z.output<typeof logicRuleBodySchema>;

export const FORM_ENTITY = 'Form';
export const FORM_BY_STATUS_ENTITY = 'FormByStatus';
export const FORM_POINTER_ENTITY = 'FormPointer';

/**
 * Names sort case-insensitively, like a person reads a list, then by id. NUL separates them: it sorts
 * below every character a name can hold (text with NUL is refused), so `gala` comes before `gala 2027`
 * and `gala!` (the previous `#` sorted after a space or `!`).
 */
function nameOrder(form: Pick<Form, 'name' | 'id'>): string {
  return `${form.name.normalize('NFC').toLowerCase()}\u0000${form.id}`;
}

/** Update order: the ISO timestamp (fixed width), then the id for ties. */
function updatedOrder(form: Pick<Form, 'updatedAt' | 'id'>): string {
  return `${form.updatedAt}#${form.id}`;
}

export { formKeys };

/** The index attributes that place an item of the `status` list (all forms when undefined) in the name and update orders. */
export function orderKeys(workspaceId: string, status: FormStatus | undefined, form: Form): Record<string, string> {
  return {
    ...indexKey(LIST_ORDER_INDEXES.byName, formKeys.byNamePartition(workspaceId, status), nameOrder(form)),
    ...indexKey(LIST_ORDER_INDEXES.byUpdatedAt, formKeys.byUpdatedPartition(workspaceId, status), updatedOrder(form)),
  };
}

/** The pointer item from a form id to its workspace (written with the form, never changed). */
export function toFormPointerItem(workspaceId: string, formId: string): Record<string, unknown> {
  return { ...formKeys.pointer(formId), ...entityAttribute(FORM_POINTER_ENTITY), workspaceId, formId };
}

/** The workspace a pointer item names. */
export function workspaceOfPointer(item: Record<string, unknown>): string | undefined {
  return typeof item.workspaceId === 'string' ? item.workspaceId : undefined;
}

function stripReadOnly(element: FormElement): FormElement {
  const { propertyData: _never, ...rest } = element as FormElement & { propertyData?: unknown };
  return rest as FormElement;
}

/** The stored item: keys, places in the list orders, entity type and the form (elements without `propertyData`). */
export function toFormItem(workspaceId: string, form: Form): Record<string, unknown> {
  return {
    ...formKeys.form(workspaceId, form.id),
    ...creationOrderKey(formKeys.form(workspaceId, form.id), form.createdAt, form.id),
    ...orderKeys(workspaceId, undefined, form),
    ...entityAttribute(FORM_ENTITY),
    ...form,
    elements: form.elements.map(stripReadOnly),
  };
}

/**
 * Maps a stored item back to the public shape. A standalone form has no attendee section, so its
 * `attendeeRowsStart` reads as 0 even where an older version stored another value: a GET body always
 * goes back through the layout PUT, and the next write stores 0.
 */
export function fromFormItem(item: Record<string, unknown>): Form {
  const form = pickFields<Form>(item, formSchema);
  return { ...form, elements: form.elements ?? [], rows: form.rows ?? [], ...(form.type === 'standalone' ? { attendeeRowsStart: 0 } : {}) };
}

/** The id a status projection points at. */
export function projectedFormId(item: Record<string, unknown>): string {
  return item.formId as string;
}

/**
 * How the status projection follows a form change: the projection of `after` to put (always: it
 * carries the name and update order, which move with every write) and the key of `before`'s to delete
 * when the status moved. Never the same key twice, so it fits in one TransactWrite with the form.
 */
export function projectionChanges(workspaceId: string, before: Form | undefined, after: Form): { puts: Record<string, unknown>[]; deletes: ItemKey[] } {
  const put = {
    ...formKeys.byStatus(workspaceId, after.status, after.id),
    ...creationOrderKey(formKeys.byStatus(workspaceId, after.status, after.id), after.createdAt, after.id),
    ...orderKeys(workspaceId, after.status, after),
    ...entityAttribute(FORM_BY_STATUS_ENTITY),
    formId: after.id,
    status: after.status,
  };
  const moved = before !== undefined && before.status !== after.status;
  return { puts: [put], deletes: moved ? [formKeys.byStatus(workspaceId, before.status, before.id)] : [] };
}

export type FormSort = 'name' | 'createdAt' | 'updatedAt';

/**
 * The partition (of the table or of an index) that holds exactly the forms of `status` (all forms
 * when undefined), in the order of `sort`; `projected` when its items are status projections (the
 * forms are then read with one BatchGet).
 */
export function formListQuery(workspaceId: string, status: FormStatus | undefined, sort: FormSort, direction: SortDirection): { query: PartitionQuery; projected: boolean } {
  const projected = status !== undefined;
  const ascending = direction === 'asc';
  if (sort === 'name') return { projected, query: { index: LIST_ORDER_INDEXES.byName, partition: formKeys.byNamePartition(workspaceId, status), ascending } };
  if (sort === 'updatedAt') return { projected, query: { index: LIST_ORDER_INDEXES.byUpdatedAt, partition: formKeys.byUpdatedPartition(workspaceId, status), ascending } };
  return { projected, query: { index: 'byCreatedAt', partition: status === undefined ? formKeys.partition(workspaceId) : formKeys.byStatusPartition(workspaceId, status), ascending } };
}
