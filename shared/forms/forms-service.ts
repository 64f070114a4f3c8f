import type { Page, PageRequest } from '../db/query.js';
import { readModifyWrite } from '../db/read-modify-write.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { newId } from '../ids.js';
import { getPropertiesByIds } from '../properties/properties-repository.js';
import type { Property } from '../properties/property-model.js';
import { view } from './element-kinds.js';
import type { FormElement } from './form-element-model.js';
import { FORM_COPY, type Form, type FormRow } from './form-model.js';
import { dropEchoed, sameContent } from '../model/round-trip.js';
import { withCopiedContent } from './form-operations.js';
import { standaloneAttendeeRowsProblem } from './form-layout.js';
import { assertFormValid, linkedPropertyIds } from './form-rules.js';
import { createForm, getForm, getFormWorkspaceId, listForms, saveForm, type FormListQuery } from './forms-repository.js';

export interface NewFormInput {
  name: string;
  type: Form['type'];
  isEventForm?: boolean | undefined;
  /** A copy's content (a GET body sent to create): elements get new ids; without rows, default rows. */
  elements?: FormElement[] | undefined;
  rows?: FormRow[] | undefined;
  attendeeRowsStart?: number | undefined;
  nameHidden?: boolean | undefined;
  status: Form['status'];
  submitButtonText: string;
  submitButtonWidth: Form['submitButtonWidth'];
  submitButtonAlign?: 'left' | 'center' | undefined;
}

async function propertiesOf(workspaceId: string, forms: readonly Form[]): Promise<Map<string, Property>> {
  const ids = [...new Set(forms.flatMap(linkedPropertyIds))];
  return ids.length === 0 ? new Map() : getPropertiesByIds(workspaceId, ids);
}

/** `propertyData` is computed on every read from the linked property and never stored (spec). */
export function withPropertyData(form: Form, properties: ReadonlyMap<string, Property>): Form {
  return {
    ...form,
    elements: form.elements.map((element) => {
      const propertyId = view(element).propertyId;
      const property = propertyId ? properties.get(propertyId) : undefined;
      if (!property) return element;
      const propertyData = {
        type: property.type,
        objectType: property.objectType,
        status: property.status,
        ...(property.options ? { options: property.options.map((option) => ({ value: option.value, label: option.label })) } : {}),
      };
      return { ...element, propertyData } as FormElement;
    }),
  };
}

/**
 * Creates a form: empty (no elements, no rows, `attendeeRowsStart` 0), or with the elements and layout
 * of a copy (a GET body sent back: its server fields are ignored, the content validated as a whole).
 * `isEventForm` follows `type`.
 */
export async function createNewForm(workspaceId: string, body: NewFormInput, now = new Date()): Promise<Form> {
  const input = dropEchoed(body, FORM_COPY);
  if (input.isEventForm !== undefined && input.isEventForm !== (input.type === 'order')) {
    throw new ValidationError({ path: 'isEventForm', message: 'is true exactly for order forms (`type: order`)' });
  }
  // Checked here too because a create without `rows` does not use it (and would drop it silently).
  const standalone = standaloneAttendeeRowsProblem(input);
  if (standalone) throw new ValidationError(standalone);
  const timestamp = now.toISOString();
  const form: Form = {
    id: newId(now),
    name: input.name,
    ...(input.nameHidden !== undefined ? { nameHidden: input.nameHidden } : {}),
    ownerId: workspaceId,
    status: input.status,
    type: input.type,
    isEventForm: input.type === 'order',
    elements: [],
    rows: [],
    attendeeRowsStart: 0,
    submitButtonText: input.submitButtonText,
    submitButtonWidth: input.submitButtonWidth,
    ...(input.submitButtonAlign !== undefined ? { submitButtonAlign: input.submitButtonAlign } : {}),
    version: 1,
    createdAt: timestamp,
    updatedAt: timestamp,
  };
  if (input.elements !== undefined || input.rows !== undefined) {
    // A new form: every link is newly chosen, so an archived property or a property whose options no
    // longer fit is refused (a duplicate keeps what its original holds: `insertForm`'s default).
    return insertForm(workspaceId, withCopiedContent(form, { elements: input.elements ?? [], rows: input.rows, attendeeRowsStart: input.attendeeRowsStart }), { newForm: true });
  }
  await createForm(workspaceId, form);
  return form;
}

/**
 * Stores a form built elsewhere after checking every rule against current properties. A duplicate
 * keeps what its original holds; a create from a body (`newForm`) is judged whole.
 */
export async function insertForm(workspaceId: string, form: Form, options: { newForm?: boolean } = {}): Promise<Form> {
  const properties = await propertiesOf(workspaceId, [form]);
  assertFormValid(form, properties, { previous: form.elements, ...options });
  await createForm(workspaceId, form);
  return withPropertyData(form, properties);
}

/** Reads a form, 404 when absent or another workspace's; `consistent` for read-modify-write. */
export async function loadForm(workspaceId: string, formId: string, consistent = false): Promise<Form> {
  const form = await getForm(workspaceId, formId, { consistent });
  if (!form) throw new NotFoundError('Form');
  return form;
}

/** A form as clients see it: with `propertyData` from one batch read of its linked properties. */
export async function readForm(workspaceId: string, formId: string): Promise<Form> {
  const form = await loadForm(workspaceId, formId);
  return withPropertyData(form, await propertiesOf(workspaceId, [form]));
}

/** An `active` form found by id alone (public routes): its workspace, comes from the form's pointer. */
export interface ActiveForm {
  workspaceId: string;
  /** With `propertyData` on linked questions. */
  form: Form;
  properties: ReadonlyMap<string, Property>;
}

/**
 * Finds a form by id for the public routes, which carry no key: the workspace comes from the form's
 * pointer, never from the request. An unknown form and a form that is not `active` are both 404 (a
 * draft is "not reachable at its URL", spec).
 */
export async function readActiveForm(formId: string): Promise<ActiveForm> {
  const workspaceId = await getFormWorkspaceId(formId);
  const stored = workspaceId === undefined ? undefined : await getForm(workspaceId, formId);
  if (workspaceId === undefined || !stored || stored.status !== 'active') throw new NotFoundError('Form');
  const properties = await propertiesOf(workspaceId, [stored]);
  return { workspaceId, form: withPropertyData(stored, properties), properties };
}

/** Whether the form exists in the workspace: one read of its small pointer item, not of the form. */
export async function formBelongsTo(workspaceId: string, formId: string): Promise<boolean> {
  return (await getFormWorkspaceId(formId)) === workspaceId;
}

/** One page of forms; one batch read fills `propertyData` for every form on the page. */
export async function listFormsPage(workspaceId: string, query: FormListQuery, request: PageRequest): Promise<Page<Form>> {
  const page = await listForms(workspaceId, query, request);
  const properties = await propertiesOf(workspaceId, page.items);
  return { ...page, items: page.items.map((form) => withPropertyData(form, properties)) };
}


/**
 * Read-modify-write of one form under optimistic concurrency (`readModifyWrite`): `change` is applied
 * to the version read, the whole result is validated (one batch read of the linked properties), and
 * the write is conditional on that version. With `If-Match` a stale version is a 409; without it a
 * lost race is retried on a fresh read, so concurrent edits of different elements all survive. A
 * change that changes nothing (the stored values sent again) writes nothing and keeps the version.
 */
export async function changeForm(
  workspaceId: string,
  formId: string,
  ifMatch: number | undefined,
  change: (form: Form) => Form,
  now: () => Date = () => new Date(),
): Promise<Form> {
  return readModifyWrite({
    resource: 'form',
    ifMatch,
    read: () => loadForm(workspaceId, formId, true),
    write: async (current) => {
      const changed = change(current);
      if (sameContent(changed, current)) return withPropertyData(current, await propertiesOf(workspaceId, [current]));
      const next: Form = { ...changed, version: current.version + 1, updatedAt: now().toISOString() };
      const properties = await propertiesOf(workspaceId, [next]);
      assertFormValid(next, properties, { previous: current.elements });
      await saveForm(workspaceId, current, next);
      return withPropertyData(next, properties);
    },
  });
}
