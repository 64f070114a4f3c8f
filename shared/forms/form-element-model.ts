import * as z from 'zod';
import { idSchema } from '../model/primitives.js';
import type { RoundTrip } from '../model/round-trip.js';

/**
 * The form element model: the zod schemas of the fourteen element types (spec "Form element") and
 * their types. Form elements are stored inside their form's item (form-model.ts); what each kind of
 * element is (question, selection, Other variant, linkable property type) is in element-kinds.ts,
 * which stays free of zod because the browser widget bundles the logic evaluator that uses it.
 * Every element variant is a strict object: a field that the type does not have is a 422, so a client
 * learns at once that e.g. `placeholder` means nothing on a `Date` question.
 */

/** Rendered as an <img> wherever the form is shown: only http(s) URLs, so no `javascript:` or `data:` payloads. */
const imageUrlSchema = lazy(() => z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2048));

export const ELEMENT_TYPES = [
  'Text', 'Multi-line Text', 'Number', 'Select One', 'Select One or "Other"', 'Select Multiple',
  'Select Multiple with "Other"', 'Yes/No', 'Date', 'File', 'Email', 'Phone', 'Static Text', 'Static Image',
] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

/** Option labels and the Other prompt. */
export const shortTextSchema = lazy(() => z.string().trim().min(1).max(500));
const longText = lazy(() => z.string().max(5000));

const eventItemRefSchema = lazy(() => z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('eventItem'), eventId: z.string().min(1), itemId: z.string().min(1) }),
  z.strictObject({ type: z.literal('eventProduct'), eventId: z.string().min(1), productId: z.string().min(1) }),
  z.strictObject({ type: z.literal('checkoutProduct'), checkoutId: z.string().min(1), productId: z.string().min(1) }),
]).meta({ id: 'EventItemReference' }));

export const selectionLogicGroupSchema = lazy(() => z.strictObject({
  revealedElementIndex: z.number().int().min(0).meta({ description: 'Index in `elements` of the element this group reveals.' }),
  optionIndices: z.array(z.number().int().min(-1)).min(1)
    .meta({ description: 'Indices into the question options (or its property options); -1 is the Other option.' }),
  operator: z.enum(['all_of', 'any_of', 'none_of']),
}).meta({ id: 'SelectionLogicGroup' }));

export const yesNoLogicGroupSchema = lazy(() => z.strictObject({
  revealedElementIndex: z.number().int().min(0),
  selectionType: z.enum(['is', 'is_not']).meta({ description: 'Strict (in)equality with `value`; no answer is neither true nor false.' }),
  value: z.boolean(),
}).meta({ id: 'YesNoLogicGroup' }));

export const propertyDataSchema = lazy(() => z.object({
  type: z.string(),
  objectType: z.enum(['contact', 'order', 'ticket', 'event']),
  status: z.enum(['active', 'archived']),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
}).meta({ id: 'PropertyData', description: 'Read-only: filled from the linked CRM property on every read, never stored.' }));
import { lazy } from '../model/lazy-schema.js';

const common = lazy(() => ({
  id: idSchema.optional().meta({ description: 'Present on stored elements; ignored on input.' }),
  prompt: z.string().min(1).max(2000),
  promptHidden: z.boolean().optional(),
  helperText: longText.optional(),
  askAllAttendees: z.boolean().optional()
    .meta({ description: 'Order forms only (dropped on a standalone form): true for ticket-holder (attendee) elements, one instance per ticket. A question with a `contactField` must be a buyer element (false): the contact is built from buyer answers only.' }),
  forEventItems: z.array(eventItemRefSchema).max(200).optional()
    .meta({ description: 'Order forms only (dropped on a standalone form): shown only when a referenced item or product is in the cart.' }),
}));

const question = lazy(() => ({
  ...common,
  propertyId: idSchema.optional().meta({ description: 'CRM property set by the answer; its type must match the question type.' }),
  propertyData: propertyDataSchema.optional(),
}));
const required = lazy(() => ({ required: z.boolean().optional() }));
const placeholder = lazy(() => ({ placeholder: z.string().max(500).optional() }));
const options = lazy(() => ({ options: z.array(shortTextSchema).min(1).max(500).optional().meta({ description: 'Only when not linked to a property.' }) }));
const otherPrompt = lazy(() => ({ otherPrompt: shortTextSchema.meta({ description: 'Label of the Other option.' }) }));
const selectionLogic = lazy(() => ({ logicGroups: z.array(selectionLogicGroupSchema).max(500).optional() }));
const multi = lazy(() => ({
  dropdown: z.literal(false).optional().meta({ description: 'Reserved; must not be true.' }),
  minChoices: z.number().int().min(0).max(500),
  maxChoices: z.number().int().min(1).max(500).optional(),
}));
const selectOne = lazy(() => ({
  dropdown: z.boolean().optional().meta({ description: 'True renders a dropdown, otherwise radio buttons.' }),
  // Kept whatever `dropdown` is: a field with no effect in the current mode is accepted, never refused (API.md "Round trips and references").
  placeholder: z.string().max(500).optional()
    .meta({ description: 'The dropdown\'s empty choice: has effect only when `dropdown` is true, and is kept (not refused) otherwise.' }),
}));
const isoDate = lazy(() => z.iso.date());

const textElement = lazy(() => z.strictObject({ ...question, type: z.literal('Text'), ...required, ...placeholder, contactField: z.enum(['firstName', 'lastName']).optional() }));
const multiLineElement = lazy(() => z.strictObject({ ...question, type: z.literal('Multi-line Text'), ...required, ...placeholder }));
const numberElement = lazy(() => z.strictObject({
  ...question, type: z.literal('Number'), ...required, ...placeholder,
  minValue: z.number().optional(), maxValue: z.number().optional(), integerOnly: z.boolean().optional(),
}));
const selectOneElement = lazy(() => z.strictObject({ ...question, type: z.literal('Select One'), ...required, ...options, ...selectOne, ...selectionLogic }));
const selectOneOtherElement = lazy(() => z.strictObject({
  ...question, type: z.literal('Select One or "Other"'), ...required, ...options, ...selectOne, ...otherPrompt, ...selectionLogic,
}));
const selectMultipleElement = lazy(() => z.strictObject({ ...question, type: z.literal('Select Multiple'), ...options, ...multi, ...selectionLogic }));
const selectMultipleOtherElement = lazy(() => z.strictObject({
  ...question, type: z.literal('Select Multiple with "Other"'), ...options, ...multi, ...otherPrompt, ...selectionLogic,
}));
const yesNoElement = lazy(() => z.strictObject({
  ...question, type: z.literal('Yes/No'), ...required,
  dropdown: z.literal(true).meta({ description: 'Reserved; must be true.' }),
  yesRequired: z.boolean().optional(),
  contactField: z.literal('status').optional().meta({ description: 'Yes sets the contact `opted-in`, No `unsubscribed`.' }),
  logicGroups: z.array(yesNoLogicGroupSchema).max(500).optional(),
}));
const dateElement = lazy(() => z.strictObject({ ...question, type: z.literal('Date'), ...required, min: isoDate.optional(), max: isoDate.optional() }));
const fileElement = lazy(() => z.strictObject({
  ...question, type: z.literal('File'), ...required,
  accept: z.array(z.enum(['images', 'documents', 'data', 'audio', 'video'])).min(1),
}));
const emailElement = lazy(() => z.strictObject({ ...question, type: z.literal('Email'), ...required, ...placeholder, contactField: z.literal('email').optional() }));
const phoneElement = lazy(() => z.strictObject({ ...question, type: z.literal('Phone'), ...required, ...placeholder, contactField: z.literal('phone').optional() }));
const staticTextElement = lazy(() => z.strictObject({ ...common, type: z.literal('Static Text'), content: z.string().min(1).max(50_000) }));
const staticImageElement = lazy(() => z.strictObject({
  ...common, type: z.literal('Static Image'), imageUrl: imageUrlSchema,
  imageWidth: z.number().min(1).max(100).default(100).meta({ description: 'Percent of the column width, 1..100.' }),
}));

/** A form element: a discriminated union on `type`, each variant with exactly its fields. */
export const formElementSchema = lazy(() => z.discriminatedUnion('type', [
  textElement, multiLineElement, numberElement, selectOneElement, selectOneOtherElement, selectMultipleElement,
  selectMultipleOtherElement, yesNoElement, dateElement, fileElement, emailElement, phoneElement, staticTextElement,
  staticImageElement,
]).meta({ id: 'FormElement', example: { type: 'Select One', prompt: 'T-shirt size', options: ['S', 'M', 'L'], required: true } }));
export type FormElement = z.output<typeof formElementSchema>;
export type SelectionLogicGroup = z.output<typeof selectionLogicGroupSchema>;
export type YesNoLogicGroup = z.output<typeof yesNoLogicGroupSchema>;
export type LogicGroup = SelectionLogicGroup | YesNoLogicGroup;
export type EventItemReference = z.output<typeof eventItemRefSchema>;
export type PropertyData = z.output<typeof propertyDataSchema>;

/**
 * PATCH body of an element: any element field, all optional; `null` removes an optional field
 * (e.g. `propertyId: null` together with `options` switches a select question to its own options).
 * The merged element is then validated against its type's variant, so inapplicable fields still fail.
 */
export const elementPatchSchema = lazy(() => z.strictObject({
  id: idSchema.optional().meta({ description: 'Read-only: the element\'s own id is accepted back (so an element as a GET returns it can be sent as is); another is 422.' }),
  propertyData: propertyDataSchema.optional().meta({ description: 'Computed from the linked property on read: ignored.' }),
  type: z.enum(ELEMENT_TYPES).optional().meta({ description: 'Immutable: only the current type is accepted.' }),
  prompt: z.string().min(1).max(2000).optional(),
  promptHidden: z.boolean().nullable().optional(),
  helperText: longText.nullable().optional(),
  placeholder: z.string().max(500).nullable().optional()
    .meta({ description: 'Text, Multi-line Text, Number, Email, Phone and Select One types (on Select One it has effect only when `dropdown` is true).' }),
  required: z.boolean().nullable().optional(),
  propertyId: idSchema.nullable().optional(),
  contactField: z.enum(['firstName', 'lastName', 'status', 'email', 'phone']).nullable().optional(),
  options: z.array(shortTextSchema).min(1).max(500).nullable().optional(),
  dropdown: z.boolean().nullable().optional(),
  yesRequired: z.boolean().nullable().optional(),
  otherPrompt: shortTextSchema.optional(),
  minChoices: z.number().int().min(0).max(500).optional(),
  maxChoices: z.number().int().min(1).max(500).nullable().optional(),
  min: isoDate.nullable().optional(),
  max: isoDate.nullable().optional(),
  minValue: z.number().nullable().optional(),
  maxValue: z.number().nullable().optional(),
  integerOnly: z.boolean().nullable().optional(),
  accept: z.array(z.enum(['images', 'documents', 'data', 'audio', 'video'])).min(1).optional(),
  logicGroups: z.array(z.union([selectionLogicGroupSchema, yesNoLogicGroupSchema], {
    error: 'must be {revealedElementIndex, optionIndices, operator: "all_of"|"any_of"|"none_of"} (selection question) or {revealedElementIndex, selectionType: "is"|"is_not", value: boolean} (Yes/No)',
  })).max(500).nullable().optional(),
  content: z.string().min(1).max(50_000).optional(),
  imageUrl: imageUrlSchema.optional(),
  imageWidth: z.number().min(1).max(100).optional(),
  forEventItems: z.array(eventItemRefSchema).max(200).nullable().optional(),
  askAllAttendees: z.boolean().optional(),
}).meta({ id: 'FormElementPatch' }));
export type ElementPatch = z.output<typeof elementPatchSchema>;

/** What an element's GET form holds that its PATCH does not set (API.md "Round trips and references"); `type` is checked by `patchElement`. */
export const ELEMENT_ROUND_TRIP: RoundTrip = { resource: 'element', readOnly: { id: undefined }, derived: ['propertyData'] };
