import { ValidationError, type ErrorDetail } from '../errors.js';
import type { Property } from '../properties/property-model.js';
import { PROPERTY_TYPE_OF, isQuestion, isSelection, view, type ElementView } from './element-kinds.js';
import type { FormElement } from './form-element-model.js';
import type { Form } from './form-model.js';
import { sectionOf, validateLayout } from './form-layout.js';
import { isSelectionGroup, neverShownErrors, validateLogic } from './form-logic.js';

export interface RuleContext {
  /**
   * The elements as stored before this change (for a duplicate: the copy itself). What a linked
   * question already had against the same property is not re-judged: its link stays valid if the
   * property was archived since (spec "Property status": archived properties stay valid wherever they
   * are referenced), and its option-count checks (logic option indices, `minChoices`) are kept: the
   * property's options may have changed since (spec "CRM property": changing options migrates
   * nothing), and that must not make every other edit of the form a 422.
   */
  readonly previous?: readonly FormElement[];
  /**
   * A new form built from a body (a GET body sent to create): nothing in it is kept from before, so
   * each link is chosen anew (an archived property or options that no longer fit are refused, as on
   * an added question) and its logic is judged whole.
   */
  readonly newForm?: boolean;
}

/** The same question as stored before this change, when it was linked to the same property. */
export function previousLink(element: ElementView, context: RuleContext): ElementView | undefined {
  if (context.newForm === true || element.id === undefined || element.propertyId === undefined) return undefined;
  const stored = context.previous?.find((candidate) => candidate.id === element.id);
  const before = stored === undefined ? undefined : view(stored);
  return before?.propertyId === element.propertyId ? before : undefined;
}

/** Property ids linked by the form's questions: the one batch read validation and reads need. */
export function linkedPropertyIds(form: Pick<Form, 'elements'>): string[] {
  return [...new Set(form.elements.map((element) => view(element).propertyId).filter((id): id is string => id !== undefined))];
}

function linkageErrors(form: Pick<Form, 'type'>, element: ElementView, path: string, properties: ReadonlyMap<string, Property>, context: RuleContext): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  // Rule 1: a CRM property or a contact field, never both.
  if (element.propertyId !== undefined && element.contactField !== undefined) {
    details.push({ path: `${path}.contactField`, message: 'a question sets a CRM property or a contact field, not both' });
  }
  // Rule 2: select questions take their options from exactly one place.
  if (isSelection(element.type) && (element.propertyId === undefined) === (element.options === undefined)) {
    details.push({ path: `${path}.options`, message: 'a select question needs exactly one of propertyId or options' });
  }
  if (element.propertyId === undefined) return details;
  const property = properties.get(element.propertyId);
  const propertyPath = `${path}.propertyId`;
  if (!property) {
    details.push({ path: propertyPath, message: `no property ${element.propertyId} in this workspace` });
    return details;
  }
  const expectedType = PROPERTY_TYPE_OF[element.type];
  if (property.type !== expectedType) {
    details.push({ path: propertyPath, message: `a ${element.type} question needs a ${expectedType} property, not ${property.type}` });
  }
  // "Newly chosen" is per question: another question of the form linking it does not make it existing here.
  if (property.status === 'archived' && previousLink(element, context) === undefined) {
    details.push({ path: propertyPath, message: 'archived properties cannot be linked to questions' });
  }
  // Rules 3-4: which objects a question may write to depends on the form type and the section.
  if (form.type === 'standalone' && property.objectType !== 'contact') {
    details.push({ path: propertyPath, message: 'standalone forms can only use contact properties' });
  } else if (form.type === 'order' && property.objectType !== 'contact') {
    const wanted = sectionOf(form, element) === 'attendee' ? 'ticket' : 'order';
    if (property.objectType !== wanted) {
      details.push({ path: propertyPath, message: `${wanted === 'ticket' ? 'attendee' : 'buyer'} questions on order forms can use ${wanted} or contact properties, not ${property.objectType}` });
    }
  }
  return details;
}

function fieldErrors(element: ElementView, path: string, properties: ReadonlyMap<string, Property>, context: RuleContext): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (element.options && new Set(element.options).size !== element.options.length) {
    details.push({ path: `${path}.options`, message: 'options must be unique' });
  }
  if (element.minChoices !== undefined && element.maxChoices !== undefined && element.minChoices > element.maxChoices) {
    details.push({ path: `${path}.maxChoices`, message: 'maxChoices must be at least minChoices' });
  }
  const optionCount = element.options?.length ?? (element.propertyId ? properties.get(element.propertyId)?.options?.length : undefined);
  const unchangedLinkedMinimum = element.options === undefined && previousLink(element, context)?.minChoices === element.minChoices;
  if (element.minChoices !== undefined && optionCount !== undefined && element.minChoices > optionCount + (element.otherPrompt ? 1 : 0) && !unchangedLinkedMinimum) {
    details.push({ path: `${path}.minChoices`, message: `minChoices exceeds the number of options (${optionCount})` });
  }
  if (element.accept && new Set(element.accept).size !== element.accept.length) {
    details.push({ path: `${path}.accept`, message: 'file kinds must be unique' });
  }
  if (element.minValue !== undefined && element.maxValue !== undefined && element.minValue > element.maxValue) {
    details.push({ path: `${path}.maxValue`, message: 'maxValue must be at least minValue' });
  } else if (element.integerOnly === true && Math.ceil(element.minValue ?? -Infinity) > Math.floor(element.maxValue ?? Infinity)) {
    // No answer could pass: every whole number is outside the bounds.
    details.push({ path: `${path}.integerOnly`, message: `no whole number lies between minValue ${element.minValue} and maxValue ${element.maxValue}` });
  }
  if (element.min !== undefined && element.max !== undefined && element.min > element.max) {
    details.push({ path: `${path}.max`, message: 'max must not be before min' });
  }
  return details;
}

function usesContact(element: ElementView, properties: ReadonlyMap<string, Property>): boolean {
  if (element.contactField !== undefined) return true;
  return element.propertyId !== undefined && properties.get(element.propertyId)?.objectType === 'contact';
}

/**
 * Rule 5: email identifies the contact, so a form that writes any contact field or contact property
 * needs a required Email question that sets `contactField: email`. Required is not enough when the
 * question can be hidden: a hidden question is neither required nor accepted (API.md "Submit
 * response"), so the contact data would be dropped. The Email question is therefore always shown: no
 * logic group reveals it (that hides it by default) and it has no `forEventItems` (present, even as
 * `[]`, it is shown only for items in the cart). Judged on the whole form, so the order of the changes
 * (hide, then link a contact field, or the reverse) does not matter.
 */
function contactEmailErrors(form: Pick<Form, 'type' | 'elements'>, properties: ReadonlyMap<string, Property>): ErrorDetail[] {
  const elements = form.elements.map(view);
  const isEmailKey = (element: ElementView) => element.type === 'Email' && element.contactField === 'email';
  const needsEmail = elements.findIndex((element) => !isEmailKey(element) && usesContact(element, properties));
  if (needsEmail < 0) return [];
  const emailIndex = elements.findIndex(isEmailKey);
  const emailElement = elements[emailIndex];
  if (emailElement === undefined) {
    return [{ path: `elements[${needsEmail}]`, message: 'a form that sets contact fields or contact properties needs an Email question with contactField "email"' }];
  }
  const details: ErrorDetail[] = [];
  if (emailElement.required !== true) {
    details.push({ path: `elements[${emailIndex}].required`, message: 'the Email question that sets contactField "email" must be required: the form sets contact data' });
  }
  elements.forEach((source, s) => {
    source.logicGroups?.forEach((group, g) => {
      if (group.revealedElementIndex !== emailIndex) return;
      details.push({
        path: `elements[${s}].logicGroups[${g}].revealedElementIndex`,
        message: 'the Email question that sets contactField "email" cannot be revealed by logic (that hides it by default): the form sets contact data, which a hidden Email question would drop',
      });
    });
  });
  // Standalone forms hold no forEventItems (dropped on input: no cart there).
  if (form.type === 'order' && emailElement.forEventItems !== undefined) {
    details.push({
      path: `elements[${emailIndex}].forEventItems`,
      message: 'the Email question that sets contactField "email" cannot be limited to cart items (forEventItems hides it by default, even as []): the form sets contact data, which a hidden Email question would drop',
    });
  }
  return details;
}

/**
 * Beside rule 5: a contact field writes the buyer's contact, which a submission builds from the
 * buyer-section answers only (attendee answers describe ticket holders, one set per ticket). On an order
 * form a question with a `contactField` in the attendee section would have its answers dropped, and a
 * contact Email question there would identify no contact, so every `contactField` question stays in
 * the buyer section. Contact properties are not concerned: rule 4 lets them sit in either section.
 * The path names what changed: `contactField` on a question that was already in the attendee section,
 * else `askAllAttendees` (a new question, a move, a patch of `askAllAttendees`).
 */
function contactSectionErrors(form: Pick<Form, 'type'>, element: ElementView, path: string, context: RuleContext): ErrorDetail[] {
  if (element.contactField === undefined || sectionOf(form, element) !== 'attendee') return [];
  const stored = element.id === undefined ? undefined : context.previous?.find((candidate) => candidate.id === element.id);
  const wasAttendee = stored !== undefined && sectionOf(form, view(stored)) === 'attendee';
  return [{
    path: `${path}.${wasAttendee ? 'contactField' : 'askAllAttendees'}`,
    message: `a question with contactField "${element.contactField}" must be in the buyer section of an order form (askAllAttendees false): the contact is built from buyer answers only, so an attendee answer would be dropped`,
  }];
}

/**
 * Beside the buyer-section rule: each contact field is set by one question of the form. A submission
 * builds one contact, so a second question with the same `contactField` (two Email questions, two
 * first names) would have its answer silently dropped. The question that already set the field (as
 * stored before this change; else the first) keeps it, and every other one is named on its
 * `contactField`, so a patch or an added question is the one refused.
 */
function repeatedContactFieldErrors(form: Pick<Form, 'elements'>, context: RuleContext): ErrorDetail[] {
  const setters = new Map<string, number[]>();
  form.elements.forEach((element, index) => {
    const field = view(element).contactField;
    if (field !== undefined) setters.set(field, [...(setters.get(field) ?? []), index]);
  });
  const details: ErrorDetail[] = [];
  for (const [field, indices] of setters) {
    if (indices.length < 2) continue;
    const storedWithField = (index: number) => {
      const id = form.elements[index]?.id;
      const stored = id === undefined ? undefined : context.previous?.find((candidate) => candidate.id === id);
      return stored !== undefined && view(stored).contactField === field;
    };
    const keeper = indices.find(storedWithField) ?? (indices[0] as number);
    const keeperId = form.elements[keeper]?.id;
    for (const index of indices) {
      if (index === keeper) continue;
      details.push({
        path: `elements[${index}].contactField`,
        message: `contactField "${field}" is already set by elements[${keeper}]${keeperId === undefined ? '' : ` (id ${keeperId})`}: one question per contact field, as a submission keeps one answer for it`,
      });
    }
  }
  return details;
}

/** Every form-level rule at once: linkage rules 1-5, contact fields in the buyer section and set once, field bounds, layout, logic. */
export function formRuleErrors(form: Form, properties: ReadonlyMap<string, Property>, context: RuleContext = {}): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  form.elements.forEach((element, index) => {
    const fields = view(element);
    const path = `elements[${index}]`;
    if (isQuestion(fields.type)) details.push(...linkageErrors(form, fields, path, properties, context), ...contactSectionErrors(form, fields, path, context));
    details.push(...fieldErrors(fields, path, properties, context));
  });
  details.push(...contactEmailErrors(form, properties), ...repeatedContactFieldErrors(form, context));
  details.push(...validateLayout(form));
  details.push(...validateLogic(form, properties, (source) => {
    const before = previousLink(source, context)?.logicGroups ?? [];
    return new Set(before.filter(isSelectionGroup).map((group) => JSON.stringify(group.optionIndices)));
  }));
  details.push(...neverShownErrors(form.elements, context.newForm === true ? [] : context.previous ?? []));
  return details;
}

/** Throws a 422 naming every offending path when the form breaks a rule. */
export function assertFormValid(form: Form, properties: ReadonlyMap<string, Property>, context: RuleContext = {}): void {
  const details = formRuleErrors(form, properties, context);
  if (details.length > 0) throw new ValidationError(details);
}
