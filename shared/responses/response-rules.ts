import { CONTACT_FIELD_SCHEMAS } from '../contacts/contact-model.js';
import type { ErrorDetail } from '../errors.js';
import { isId } from '../ids.js';
import { isWebUrl } from '../model/primitives.js';
import { choiceBounds, hasOther, isQuestion, optionValuesOf, view, type ElementView } from '../forms/element-kinds.js';
import type { FormElement } from '../forms/form-element-model.js';
import { sectionOf } from '../forms/form-layout.js';
import type { Form } from '../forms/form-model.js';
import { visibleElementIds } from '../forms/logic-evaluator.js';
import { isCalendarDate, isEmail } from '../properties/property-values.js';
import type { Submission } from './response-model.js';


/** Element fields the answer rules read beyond ElementView (they exist on one variant each). */
type AnsweredElement = ElementView & { readonly integerOnly?: boolean; readonly yesRequired?: boolean };

/** A form as validated: linked questions carry `propertyData` (their options come from it). */
export type SubmittedForm = Pick<Form, 'type' | 'elements'>;

/**
 * No answer: absent, `null`, a blank string or an empty array. A browser form posts every field, so
 * blank values of hidden or optional questions are not answers (neither required nor rejected).
 */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

function numberProblem(element: AnsweredElement, value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a finite number';
  if (element.integerOnly === true && !Number.isInteger(value)) return 'must be a whole number';
  if (element.minValue !== undefined && value < element.minValue) return `must be at least ${element.minValue}`;
  if (element.maxValue !== undefined && value > element.maxValue) return `must be at most ${element.maxValue}`;
  return undefined;
}

function dateProblem(element: AnsweredElement, value: unknown): string | undefined {
  if (typeof value !== 'string' || !isCalendarDate(value)) return 'must be a date written YYYY-MM-DD';
  // YYYY-MM-DD strings order like the dates they spell.
  if (element.min !== undefined && value < element.min) return `must be on or after ${element.min}`;
  if (element.max !== undefined && value > element.max) return `must be on or before ${element.max}`;
  return undefined;
}

function selectOneProblem(element: AnsweredElement, value: unknown): string | undefined {
  const options = optionValuesOf(element) ?? [];
  if (typeof value !== 'string') return 'must be one option (a string)';
  if (options.includes(value) || hasOther(element.type)) return undefined;
  return `must be one of: ${options.join(', ')}`;
}

function selectMultipleProblem(element: AnsweredElement, value: unknown): string | undefined {
  const options = optionValuesOf(element) ?? [];
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) return 'must be an array of options (strings)';
  const chosen = value as string[];
  if (new Set(chosen).size !== chosen.length) return 'lists an option more than once';
  const others = chosen.filter((entry) => !options.includes(entry));
  if (others.length > 0 && !hasOther(element.type)) return `every entry must be one of: ${options.join(', ')}`;
  if (others.length > 1) return 'takes at most one Other answer';
  if (others.some((entry) => entry.trim() === '')) return 'the Other answer must not be blank';
  const { min, max } = choiceBounds(element);
  if (min !== undefined && chosen.length < min) return `needs at least ${min} choices`;
  if (max !== undefined && chosen.length > max) return `takes at most ${max} choices`;
  return undefined;
}

/**
 * A File answer names an uploaded file: an absolute `https:`/`http:` URL or an id of the platform's
 * format, nothing else. Hosts render these answers as links in their dashboards, so `javascript:`,
 * `data:`, `file:` or free text would be an injection (or a leak) there (`isWebUrl`).
 */
function fileProblem(value: unknown): string | undefined {
  if (typeof value === 'string' && (isId(value.trim()) || isWebUrl(value))) return undefined;
  return 'must be the URL or id of an uploaded file (an absolute https: or http: URL, or a 24-character id)';
}

/** Why a (non-blank) answer does not fit its question's type and settings. */
function typeProblem(element: AnsweredElement, value: unknown): string | undefined {
  switch (element.type) {
    case 'Text':
    case 'Multi-line Text':
    case 'Phone':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'Email':
      return typeof value === 'string' && isEmail(value.trim()) ? undefined : 'must be an email address';
    case 'Number':
      return numberProblem(element, value);
    case 'Yes/No':
      if (typeof value !== 'boolean') return 'must be true (Yes) or false (No)';
      return element.yesRequired === true && !value ? 'must be answered Yes' : undefined;
    case 'Date':
      return dateProblem(element, value);
    case 'Select One':
    case 'Select One or "Other"':
      return selectOneProblem(element, value);
    case 'Select Multiple':
    case 'Select Multiple with "Other"':
      return selectMultipleProblem(element, value);
    case 'File':
      return fileProblem(value);
    case 'Static Text':
    case 'Static Image':
      return 'is static content and takes no answer';
  }
}

/**
 * Why an answer that sets a contact field breaks that field's rule in the contacts API (e.g. a name
 * over 200 characters), or `undefined`. Without it a submission would write a contact that its own
 * GET, sent back as an update, could not pass, nor the invoices that copy its name.
 */
function contactFieldProblem(field: string | undefined, value: unknown): string | undefined {
  if (field === undefined || !Object.hasOwn(CONTACT_FIELD_SCHEMAS, field)) return undefined;
  const result = CONTACT_FIELD_SCHEMAS[field as keyof typeof CONTACT_FIELD_SCHEMAS].safeParse(value);
  return result.success ? undefined : `sets the contact's ${field}: ${result.error.issues[0]?.message ?? 'is not a valid value'}`;
}

/** Why a (non-blank) answer is invalid for its question, or `undefined` when it is fine. */
export function answerProblem(element: AnsweredElement, value: unknown): string | undefined {
  return typeProblem(element, value) ?? contactFieldProblem(element.contactField, value);
}

/** Why a visible question left blank blocks the submission, or `undefined` when it may stay blank. */
export function missingProblem(element: AnsweredElement): string | undefined {
  if (element.type === 'Select Multiple' || element.type === 'Select Multiple with "Other"') {
    const { min } = choiceBounds(element);
    return (min ?? 0) > 0 ? `is required: choose at least ${min}` : undefined;
  }
  if (element.type === 'Yes/No' && element.yesRequired === true) return 'is required: must be answered Yes';
  return element.required === true ? 'is required' : undefined;
}

/** Checks one answer map (buyer answers, or one attendee's) against the elements of its section. */
function sectionProblems(
  elements: ReadonlyMap<string, FormElement>,
  answers: Readonly<Record<string, unknown>>,
  visible: ReadonlySet<string>,
  inSection: (element: FormElement) => boolean,
  prefix: string,
  misplaced: string,
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const [id, value] of Object.entries(answers)) {
    const path = `${prefix}.${id}`;
    const element = elements.get(id);
    if (!element) details.push({ path, message: 'no element of this form has this id' });
    else if (!isQuestion(element.type)) details.push({ path, message: 'is static content and takes no answer' });
    else if (!inSection(element)) details.push({ path, message: misplaced });
    else if (isBlank(value)) continue;
    else if (!visible.has(id)) details.push({ path, message: 'is hidden by the form logic for these answers, so it takes no answer' });
    else {
      const problem = answerProblem(view(element), value);
      if (problem) details.push({ path, message: problem });
    }
  }
  for (const [id, element] of elements) {
    if (!inSection(element) || !visible.has(id) || !isBlank(answers[id])) continue;
    const problem = missingProblem(view(element));
    if (problem) details.push({ path: `${prefix}.${id}`, message: problem });
  }
  return details;
}

/**
 * Every rule a submission must pass, as `[{path, message}]` (empty when valid). Visibility comes from
 * THE logic evaluator: buyer answers decide the buyer section, and each attendee instance of an order
 * form is evaluated with that attendee's answers. There is no cart at submission, so elements limited
 * by `forEventItems` are hidden.
 */
export function submissionProblems(form: SubmittedForm, submission: Submission): ErrorDetail[] {
  const elements = new Map(form.elements.flatMap((element) => (element.id === undefined ? [] : [[element.id, element] as const])));
  const isAttendee = (element: FormElement) => sectionOf(form, element) === 'attendee';
  const hasAttendeeQuestions = form.elements.some((element) => isAttendee(element) && isQuestion(element.type));
  const details = sectionProblems(
    elements, submission.answers, visibleElementIds(form, { answers: submission.answers }), (element) => !isAttendee(element), 'answers',
    'is asked of every attendee: answer it in attendees[i]',
  );
  const attendees = submission.attendees;
  if (form.type === 'standalone') {
    if (attendees !== undefined) details.push({ path: 'attendees', message: 'standalone forms take no attendees' });
    return details;
  }
  if (hasAttendeeQuestions && (attendees === undefined || attendees.length === 0)) {
    details.push({ path: 'attendees', message: 'this order form asks every attendee: send at least one attendee' });
  }
  (attendees ?? []).forEach((attendee, index) => {
    const visible = visibleElementIds(form, { answers: submission.answers, attendee });
    details.push(...sectionProblems(elements, attendee, visible, isAttendee, `attendees[${index}]`, 'is a buyer question: answer it in answers'));
  });
  return details;
}
