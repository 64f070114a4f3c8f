import { NotFoundError, ValidationError } from '../errors.js';
import { issuesToDetails } from '../model/issues.js';
import { newId } from '../ids.js';
import { OTHER_TOGGLE, canRevealOthers, view } from './element-kinds.js';
import { ELEMENT_ROUND_TRIP, formElementSchema, type ElementPatch, type FormElement, type LogicGroup } from './form-element-model.js';
import { FORM_NAME_MAX_LENGTH, FORM_ROUND_TRIP, type EditFormBody, type Form, type FormRow, type LogicRuleBody } from './form-model.js';
import { mergePatch } from '../model/merge-patch.js';
import { checkEchoed } from '../model/round-trip.js';
import { appendRow, removeFromLayout, renumberRows, sectionOf, type Section } from './form-layout.js';
import { isSelectionGroup, renumberLogicAfterDelete, withLogicGroups } from './form-logic.js';

/**
 * Pure changes to a form: each takes the current form and returns the next one. They keep the
 * structure consistent (layout, indices); the business rules are checked afterwards, on the whole
 * result, by `assertFormValid`.
 */

/**
 * Drops read-only and client-supplied fields and gives order-form elements their section flag. On a
 * standalone form the order-form fields (`askAllAttendees`, `forEventItems`) have no effect, so they are
 * dropped rather than refused (API.md "Round trips and references"): an element copied from an order
 * form's GET body goes in as it is.
 */
function normalize(form: Pick<Form, 'type'>, element: FormElement, id: string): FormElement {
  const { propertyData: _readOnly, ...rest } = element as FormElement & { propertyData?: unknown };
  if (form.type === 'standalone') {
    const { askAllAttendees: _section, forEventItems: _cart, ...standalone } = rest as typeof rest & { askAllAttendees?: boolean; forEventItems?: unknown };
    return { ...standalone, id } as FormElement;
  }
  const next = { ...rest, id } as FormElement;
  if (view(next).askAllAttendees === undefined) return { ...next, askAllAttendees: false } as FormElement;
  return next;
}

export function indexOfElement(form: Pick<Form, 'elements'>, elementId: string): number {
  const index = form.elements.findIndex((element) => element.id === elementId);
  if (index < 0) throw new NotFoundError('Element');
  return index;
}

/** A 422 with each detail's path renamed; any other error as it is. */
function withRenamedPaths<T>(error: T, rename: (path: string) => string): T {
  if (!(error instanceof ValidationError)) return error;
  return new ValidationError(error.details.map((detail) => ({ ...detail, path: rename(detail.path) })), error.message) as T;
}

/**
 * The 422 of a whole-form check as an element route answers it (its body is the element at `index`):
 * the element's own fields by their path in the body (`propertyId`, `logicGroups[0].optionIndices[0]`),
 * other elements and the layout by their place in the form (`elements[2].contactField`, `rows`).
 */
export function inElementTerms<T>(error: T, index: number): T {
  const prefix = `elements[${index}]`;
  return withRenamedPaths(error, (path) => {
    if (path === prefix) return '';
    return path.startsWith(`${prefix}.`) ? path.slice(prefix.length + 1) : path;
  });
}

/**
 * The 422 of a whole-form check as the add-logic-rule route answers it: the new group (group `group`
 * of the source at `index`) by the body's fields (`revealedElementId`, `condition.optionIndices[0]`),
 * anything else by its place in the form.
 */
export function inLogicRuleTerms<T>(error: T, index: number, group: number): T {
  const prefix = `elements[${index}].logicGroups[${group}]`;
  return withRenamedPaths(error, (path) => {
    if (path === `${prefix}.revealedElementIndex`) return 'revealedElementId';
    if (path === prefix) return 'condition';
    return path.startsWith(`${prefix}.`) ? `condition.${path.slice(prefix.length + 1)}` : path;
  });
}

function replaceElement(form: Form, index: number, element: FormElement): Form {
  const elements = [...form.elements];
  elements[index] = element;
  return { ...form, elements };
}

/** Adds an element in a new full-width row: end of the buyer section (order forms) or of the form. */
export function addElement(form: Form, input: FormElement): { form: Form; index: number } {
  const element = normalize(form, input, newId());
  const index = form.elements.length;
  const section: Section = sectionOf(form, view(element));
  const layout = appendRow(form, index, section);
  return { form: { ...form, elements: [...form.elements, element], ...layout }, index };
}

/** Overwrites only the provided fields (`null` removes one); the type never changes here. */
export function patchElement(form: Form, index: number, sent: ElementPatch): Form {
  const current = form.elements[index] as FormElement;
  const patch = checkEchoed(current, sent, ELEMENT_ROUND_TRIP);
  if (patch.type !== undefined && patch.type !== current.type) {
    throw new ValidationError({ path: 'type', message: 'the element type cannot be changed (the Other toggle switches between Other variants)' });
  }
  const merged = mergePatch(current, patch, Object.keys(patch).filter((key) => key !== 'type'));
  const parsed = formElementSchema.safeParse(merged);
  if (!parsed.success) throw new ValidationError(issuesToDetails(parsed.error));
  return replaceElement(form, index, normalize(form, parsed.data, current.id as string));
}

/**
 * Deletes an element: its column (and emptied row) leaves the layout, groups revealing it go, and
 * every index past it moves down by one.
 */
export function deleteElement(form: Form, index: number): Form {
  const layout = removeFromLayout(form.rows, form.attendeeRowsStart, index);
  const remaining = form.elements.filter((_element, i) => i !== index);
  return {
    ...form,
    elements: renumberLogicAfterDelete(remaining, index),
    rows: renumberRows(layout.rows, index),
    attendeeRowsStart: layout.attendeeRowsStart,
  };
}

/** Switches a selection question between its plain and Other variants (spec "Form element type"). */
export function toggleOther(form: Form, index: number, body: { enabled: true; otherPrompt: string } | { enabled: false }): Form {
  const element = form.elements[index] as FormElement;
  const toggle = OTHER_TOGGLE[element.type];
  if (!toggle) throw new ValidationError({ path: 'enabled', message: `the Other option exists on selection questions only, not ${element.type}` });
  const { otherPrompt: _dropped, ...rest } = element as FormElement & { otherPrompt?: string };
  if (body.enabled) return replaceElement(form, index, { ...rest, type: toggle.on, otherPrompt: body.otherPrompt } as FormElement);
  // Without the Other option, -1 no longer names an option: drop it, and groups that only had it.
  const groups = (view(element).logicGroups ?? [])
    .map((group) => (isSelectionGroup(group) ? { ...group, optionIndices: group.optionIndices.filter((option) => option !== -1) } : group))
    .filter((group) => !isSelectionGroup(group) || group.optionIndices.length > 0);
  return replaceElement(form, index, withLogicGroups({ ...rest, type: toggle.off } as FormElement, groups));
}

/** Moves an element of an order form to a new full-width row at the end of the other section. */
export function moveElement(form: Form, index: number, section: Section): Form {
  if (form.type !== 'order') throw new ValidationError({ path: 'section', message: 'only order forms have buyer and attendee sections' });
  const layout = removeFromLayout(form.rows, form.attendeeRowsStart, index);
  const element = { ...(form.elements[index] as FormElement), askAllAttendees: section === 'attendee' } as FormElement;
  const moved = appendRow({ type: form.type, ...layout }, index, section);
  return { ...replaceElement(form, index, element), ...moved };
}

/** Appends a logic group to a selection or Yes/No source (at `index`); `group` is the new group's index among its groups. */
export function addLogicRule(form: Form, index: number, body: LogicRuleBody): { form: Form; group: number } {
  const source = form.elements[index] as FormElement;
  if (!canRevealOthers(source.type)) {
    throw new ValidationError({ path: 'elementId', message: `logic rules need a selection or Yes/No source, not ${source.type}` });
  }
  const target = form.elements.findIndex((element) => element.id === body.revealedElementId);
  if (target < 0) throw new ValidationError({ path: 'revealedElementId', message: 'no element with this id in the form' });
  const { condition } = body;
  let group: LogicGroup;
  if (source.type === 'Yes/No') {
    if (!('selectionType' in condition)) throw new ValidationError({ path: 'condition', message: 'a Yes/No source takes {selectionType: "is"|"is_not", value: boolean}' });
    group = { revealedElementIndex: target, selectionType: condition.selectionType, value: condition.value };
  } else {
    if (!('optionIndices' in condition)) throw new ValidationError({ path: 'condition', message: 'a selection source takes {optionIndices, operator}' });
    group = { revealedElementIndex: target, optionIndices: condition.optionIndices, operator: condition.operator };
  }
  const groups = [...(view(source).logicGroups ?? []), group];
  return { form: replaceElement(form, index, withLogicGroups(source, groups)), group: groups.length - 1 };
}

/** Removes every group of the source that reveals one element; none left removes `logicGroups`. */
export function removeLogicRule(form: Form, index: number, revealedElementId: string): Form {
  const source = form.elements[index] as FormElement;
  const target = form.elements.findIndex((element) => element.id === revealedElementId);
  const groups = view(source).logicGroups ?? [];
  const kept = groups.filter((group) => group.revealedElementIndex !== target);
  if (target < 0 || kept.length === groups.length) throw new NotFoundError('Logic rule');
  return replaceElement(form, index, withLogicGroups(source, kept));
}

export function replaceLayout(form: Form, layout: { rows: FormRow[]; attendeeRowsStart: number }): Form {
  return { ...form, rows: layout.rows, attendeeRowsStart: layout.attendeeRowsStart };
}

/**
 * Settings only; `type` and `isEventForm` are fixed at creation, and the rest of a GET body is taken
 * back when unchanged (`FORM_ROUND_TRIP`). `null` clears an optional setting.
 */
export function editSettings(form: Form, sent: EditFormBody): Form {
  const body = checkEchoed(form, sent, FORM_ROUND_TRIP);
  return mergePatch(form, body, ['name', 'nameHidden', 'status', 'submitButtonText', 'submitButtonWidth', 'submitButtonAlign']);
}

const COPY_PREFIX = '[Copy] ';

/**
 * `[Copy] <name>`, within the name limit: a long original is cut so the copy can be sent back (a
 * round trip) without a 422. The cut never falls between the two halves of a surrogate pair, which
 * would leave a lone surrogate the API refuses.
 */
export function copyName(name: string): string {
  const room = FORM_NAME_MAX_LENGTH - COPY_PREFIX.length;
  if (name.length <= room) return `${COPY_PREFIX}${name}`;
  const lastUnit = name.charCodeAt(room - 1);
  const end = lastUnit >= 0xd800 && lastUnit <= 0xdbff ? room - 1 : room;
  // The name schema trims; a cut that ends on a space would not survive a round trip unchanged.
  return `${COPY_PREFIX}${name.slice(0, end).trimEnd()}`;
}

/**
 * A copy with all elements, layout and logic: new ids, `[Copy] ` name (see `copyName`) and `draft` unless overridden.
 * Logic and layout refer to elements by index, so they carry over unchanged.
 */
export function duplicateForm(form: Form, overrides: { name?: string | undefined; status?: Form['status'] | undefined }, now: Date): Form {
  const timestamp = now.toISOString();
  return {
    ...form,
    id: newId(now),
    name: overrides.name ?? copyName(form.name),
    status: overrides.status ?? 'draft',
    elements: form.elements.map((element) => ({ ...element, id: newId(now) })),
    version: 1,
    createdAt: timestamp,
    updatedAt: timestamp,
  };
}

/**
 * A new form with the elements and layout of a copy (a GET body sent to create): each element is added
 * as `addElement` adds one (new id, `propertyData` dropped, a full-width row in its section), then the
 * copy's own layout replaces those rows when it has one. Logic refers to elements by index, so it
 * carries over; the whole result is validated by `assertFormValid` before it is stored.
 */
export function withCopiedContent(form: Form, copy: { elements: FormElement[]; rows?: FormRow[] | undefined; attendeeRowsStart?: number | undefined }): Form {
  let next = form;
  for (const element of copy.elements) next = addElement(next, element).form;
  if (copy.rows === undefined) return next;
  return { ...next, rows: copy.rows, attendeeRowsStart: copy.attendeeRowsStart ?? 0 };
}
