import * as z from 'zod';
import { idSchema } from '../http/schemas.js';

/**
 * The zod schemas of forms and their elements (spec "Form", "Form element"). They validate requests
 * at the edge and generate the OpenAPI document; the route file (`shared/http/routes/forms.ts`)
 * composes them. Every element variant is a strict object: a field that the type does not have is a
 * 422, so a client learns at once that e.g. `placeholder` means nothing on a `Date` question.
 */

/** Rendered as an <img> wherever the form is shown: only http(s) URLs, so no `javascript:` or `data:` payloads. */
const imageUrlSchema = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2048);

export const FORM_STATUSES = ['draft', 'active', 'archived'] as const;
export const FORM_TYPES = ['standalone', 'order'] as const;

export const ELEMENT_TYPES = [
  'Text', 'Multi-line Text', 'Number', 'Select One', 'Select One or "Other"', 'Select Multiple',
  'Select Multiple with "Other"', 'Yes/No', 'Date', 'File', 'Email', 'Phone', 'Static Text', 'Static Image',
] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

const shortText = z.string().trim().min(1).max(500);
const longText = z.string().max(5000);

const eventItemRefSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('eventItem'), eventId: z.string().min(1), itemId: z.string().min(1) }),
  z.strictObject({ type: z.literal('eventProduct'), eventId: z.string().min(1), productId: z.string().min(1) }),
  z.strictObject({ type: z.literal('checkoutProduct'), checkoutId: z.string().min(1), productId: z.string().min(1) }),
]).meta({ id: 'EventItemReference' });

export const selectionLogicGroupSchema = z.strictObject({
  revealedElementIndex: z.number().int().min(0).meta({ description: 'Index in `elements` of the element this group reveals.' }),
  optionIndices: z.array(z.number().int().min(-1)).min(1)
    .meta({ description: 'Indices into the question options (or its property options); -1 is the Other option.' }),
  operator: z.enum(['all_of', 'any_of', 'none_of']),
}).meta({ id: 'SelectionLogicGroup' });

export const yesNoLogicGroupSchema = z.strictObject({
  revealedElementIndex: z.number().int().min(0),
  selectionType: z.enum(['is', 'is_not']).meta({ description: 'Strict (in)equality with `value`; no answer is neither true nor false.' }),
  value: z.boolean(),
}).meta({ id: 'YesNoLogicGroup' });

export const propertyDataSchema = z.object({
  type: z.string(),
  objectType: z.enum(['contact', 'order', 'ticket', 'event']),
  status: z.enum(['active', 'archived']),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
}).meta({ id: 'PropertyData', description: 'Read-only: filled from the linked CRM property on every read, never stored.' });

const common = {
  id: idSchema.optional().meta({ description: 'Present on stored elements; ignored on input.' }),
  prompt: z.string().min(1).max(2000),
  promptHidden: z.boolean().optional(),
  helperText: longText.optional(),
  askAllAttendees: z.boolean().optional()
    .meta({ description: 'Order forms only: true for ticket-holder (attendee) elements, one instance per ticket.' }),
  forEventItems: z.array(eventItemRefSchema).max(200).optional()
    .meta({ description: 'Order forms only: shown only when a referenced item or product is in the cart.' }),
};

const question = {
  ...common,
  propertyId: idSchema.optional().meta({ description: 'CRM property set by the answer; its type must match the question type.' }),
  propertyData: propertyDataSchema.optional(),
};
const required = { required: z.boolean().optional() };
const placeholder = { placeholder: z.string().max(500).optional() };
const options = { options: z.array(shortText).min(1).max(500).optional().meta({ description: 'Only when not linked to a property.' }) };
const otherPrompt = { otherPrompt: shortText.meta({ description: 'Label of the Other option.' }) };
const selectionLogic = { logicGroups: z.array(selectionLogicGroupSchema).max(500).optional() };
const multi = {
  dropdown: z.literal(false).optional().meta({ description: 'Reserved; must not be true.' }),
  minChoices: z.number().int().min(0).max(500),
  maxChoices: z.number().int().min(1).max(500).optional(),
};
const selectOne = {
  dropdown: z.boolean().optional(),
  ...placeholder,
};
const isoDate = z.iso.date();

const textElement = z.strictObject({ ...question, type: z.literal('Text'), ...required, ...placeholder, contactField: z.enum(['firstName', 'lastName']).optional() });
const multiLineElement = z.strictObject({ ...question, type: z.literal('Multi-line Text'), ...required, ...placeholder });
const numberElement = z.strictObject({
  ...question, type: z.literal('Number'), ...required, ...placeholder,
  minValue: z.number().optional(), maxValue: z.number().optional(), integerOnly: z.boolean().optional(),
});
const selectOneElement = z.strictObject({ ...question, type: z.literal('Select One'), ...required, ...options, ...selectOne, ...selectionLogic });
const selectOneOtherElement = z.strictObject({
  ...question, type: z.literal('Select One or "Other"'), ...required, ...options, ...selectOne, ...otherPrompt, ...selectionLogic,
});
const selectMultipleElement = z.strictObject({ ...question, type: z.literal('Select Multiple'), ...options, ...multi, ...selectionLogic });
const selectMultipleOtherElement = z.strictObject({
  ...question, type: z.literal('Select Multiple with "Other"'), ...options, ...multi, ...otherPrompt, ...selectionLogic,
});
const yesNoElement = z.strictObject({
  ...question, type: z.literal('Yes/No'), ...required,
  dropdown: z.literal(true).meta({ description: 'Reserved; must be true.' }),
  yesRequired: z.boolean().optional(),
  contactField: z.literal('status').optional().meta({ description: 'Yes sets the contact `opted-in`, No `unsubscribed`.' }),
  logicGroups: z.array(yesNoLogicGroupSchema).max(500).optional(),
});
const dateElement = z.strictObject({ ...question, type: z.literal('Date'), ...required, min: isoDate.optional(), max: isoDate.optional() });
const fileElement = z.strictObject({
  ...question, type: z.literal('File'), ...required,
  accept: z.array(z.enum(['images', 'documents', 'data', 'audio', 'video'])).min(1),
});
const emailElement = z.strictObject({ ...question, type: z.literal('Email'), ...required, ...placeholder, contactField: z.literal('email').optional() });
const phoneElement = z.strictObject({ ...question, type: z.literal('Phone'), ...required, ...placeholder, contactField: z.literal('phone').optional() });
const staticTextElement = z.strictObject({ ...common, type: z.literal('Static Text'), content: z.string().min(1).max(50_000) });
const staticImageElement = z.strictObject({
  ...common, type: z.literal('Static Image'), imageUrl: imageUrlSchema,
  imageWidth: z.number().min(1).max(100).default(100).meta({ description: 'Percent of the column width, 1..100.' }),
});

/** A form element: a discriminated union on `type`, each variant with exactly its fields. */
export const formElementSchema = z.discriminatedUnion('type', [
  textElement, multiLineElement, numberElement, selectOneElement, selectOneOtherElement, selectMultipleElement,
  selectMultipleOtherElement, yesNoElement, dateElement, fileElement, emailElement, phoneElement, staticTextElement,
  staticImageElement,
]).meta({ id: 'FormElement', example: { type: 'Select One', prompt: 'T-shirt size', options: ['S', 'M', 'L'], required: true } });
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
export const elementPatchSchema = z.strictObject({
  type: z.enum(ELEMENT_TYPES).optional().meta({ description: 'Immutable: only the current type is accepted.' }),
  prompt: z.string().min(1).max(2000).optional(),
  promptHidden: z.boolean().nullable().optional(),
  helperText: longText.nullable().optional(),
  placeholder: z.string().max(500).nullable().optional(),
  required: z.boolean().nullable().optional(),
  propertyId: idSchema.nullable().optional(),
  contactField: z.enum(['firstName', 'lastName', 'status', 'email', 'phone']).nullable().optional(),
  options: z.array(shortText).min(1).max(500).nullable().optional(),
  dropdown: z.boolean().nullable().optional(),
  yesRequired: z.boolean().nullable().optional(),
  otherPrompt: shortText.optional(),
  minChoices: z.number().int().min(0).max(500).optional(),
  maxChoices: z.number().int().min(1).max(500).nullable().optional(),
  min: isoDate.nullable().optional(),
  max: isoDate.nullable().optional(),
  minValue: z.number().nullable().optional(),
  maxValue: z.number().nullable().optional(),
  integerOnly: z.boolean().nullable().optional(),
  accept: z.array(z.enum(['images', 'documents', 'data', 'audio', 'video'])).min(1).optional(),
  logicGroups: z.array(z.union([selectionLogicGroupSchema, yesNoLogicGroupSchema])).max(500).nullable().optional(),
  content: z.string().min(1).max(50_000).optional(),
  imageUrl: imageUrlSchema.optional(),
  imageWidth: z.number().min(1).max(100).optional(),
  forEventItems: z.array(eventItemRefSchema).max(200).nullable().optional(),
  askAllAttendees: z.boolean().optional(),
}).meta({ id: 'FormElementPatch' });
export type ElementPatch = z.output<typeof elementPatchSchema>;

export const columnSchema = z.strictObject({
  elementIndex: z.number().int().min(0),
  widthFraction: z.number().gt(0).max(1),
});
export const rowSchema = z.strictObject({ columns: z.array(columnSchema).min(1).max(12) }).meta({ id: 'FormRow' });
export type FormRow = z.output<typeof rowSchema>;

const formSettings = {
  name: z.string().trim().min(1).max(200),
  nameHidden: z.boolean().optional(),
  status: z.enum(FORM_STATUSES),
  submitButtonText: z.string().trim().min(1).max(100),
  submitButtonWidth: z.enum(['auto', 'fill']),
  submitButtonAlign: z.enum(['left', 'center']).optional(),
};

export const formSchema = z.object({
  id: idSchema,
  ...formSettings,
  ownerId: z.string().meta({ description: 'Workspace (host) that owns the form.' }),
  type: z.enum(FORM_TYPES),
  isEventForm: z.boolean().meta({ description: 'True exactly for `type: order`; immutable.' }),
  elements: z.array(formElementSchema),
  rows: z.array(rowSchema),
  attendeeRowsStart: z.number().int().min(0).meta({ description: 'First row of the ticket-holder section (order forms).' }),
  version: z.number().int().meta({ description: 'Optimistic-concurrency version; send it as `If-Match`.' }),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: 'Form' });
export type Form = Omit<z.output<typeof formSchema>, 'elements'> & { elements: FormElement[] };
export type FormStatus = (typeof FORM_STATUSES)[number];

export const createFormBodySchema = z.strictObject({
  name: formSettings.name,
  type: z.enum(FORM_TYPES),
  nameHidden: z.boolean().optional(),
  submitButtonText: formSettings.submitButtonText.default('Submit'),
  submitButtonWidth: formSettings.submitButtonWidth.default('auto'),
  submitButtonAlign: formSettings.submitButtonAlign,
  status: formSettings.status.default('draft'),
}).meta({ id: 'CreateForm', example: { name: 'Conference registration', type: 'order', submitButtonText: 'Register' } });

/** `type` and `isEventForm` are accepted by the schema only to answer them with a clear 422. */
export const editFormBodySchema = z.strictObject({
  name: formSettings.name.optional(),
  nameHidden: z.boolean().nullable().optional(),
  status: formSettings.status.optional(),
  submitButtonText: formSettings.submitButtonText.optional(),
  submitButtonWidth: formSettings.submitButtonWidth.optional(),
  submitButtonAlign: z.enum(['left', 'center']).nullable().optional(),
  type: z.unknown().optional().meta({ description: 'Immutable: present is a 422.' }),
  isEventForm: z.unknown().optional().meta({ description: 'Immutable: present is a 422.' }),
}).meta({ id: 'EditFormSettings' });
export type EditFormBody = z.output<typeof editFormBodySchema>;

export const layoutBodySchema = z.strictObject({
  rows: z.array(rowSchema).max(1000),
  attendeeRowsStart: z.number().int().min(0),
}).meta({
  id: 'FormLayout',
  example: { rows: [{ columns: [{ elementIndex: 0, widthFraction: 0.5 }, { elementIndex: 1, widthFraction: 0.5 }] }, { columns: [{ elementIndex: 2, widthFraction: 1 }] }], attendeeRowsStart: 1 },
});

export const duplicateFormBodySchema = z.strictObject({
  name: formSettings.name.optional(),
  status: formSettings.status.optional(),
}).meta({ id: 'DuplicateForm' });

export const toggleOtherBodySchema = z.discriminatedUnion('enabled', [
  z.strictObject({ enabled: z.literal(true), otherPrompt: shortText }),
  z.strictObject({ enabled: z.literal(false) }),
]).meta({ id: 'ToggleOther' });

export const moveElementBodySchema = z.strictObject({ section: z.enum(['buyer', 'attendee']) }).meta({ id: 'MoveElement' });

export const logicRuleBodySchema = z.strictObject({
  revealedElementId: idSchema,
  condition: z.union([
    z.strictObject({ optionIndices: z.array(z.number().int().min(-1)).min(1), operator: z.enum(['all_of', 'any_of', 'none_of']) }),
    z.strictObject({ selectionType: z.enum(['is', 'is_not']), value: z.boolean() }),
  ]).meta({ description: 'Selection source: `{optionIndices, operator}`; Yes/No source: `{selectionType, value}`.' }),
}).meta({ id: 'AddLogicRule', example: { revealedElementId: '6740f1a2c3d4e5f601234567', condition: { optionIndices: [0, -1], operator: 'any_of' } } });
export type LogicRuleBody = z.output<typeof logicRuleBodySchema>;
