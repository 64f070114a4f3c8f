import * as z from 'zod';
import { choiceBounds, isSelection, view } from './element-kinds.js';
import { ELEMENT_TYPES, formElementSchema, type FormElement, type PropertyData } from './form-element-model.js';
import { formSchema, type Form } from './form-model.js';
import { lazy, once } from '../model/lazy-schema.js';

/**
 * What a respondent's browser may know of a form (`GET /forms/{formId}`, no key): enough to render it
 * and run its logic with the same evaluator as the server, nothing about the host's data model. Left
 * out: the workspace (`ownerId`), `status`, `version`, timestamps, and per element the linked property
 * (`propertyId`, `propertyData`) and the cart references of `forEventItems`.
 */

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A form element as respondents see it. A question linked to a select property carries that property's
 * option values as `options` (what an answer holds, and what logic `optionIndices` point into) and
 * their display texts as `optionLabels`; `minChoices`/`maxChoices` are those a submission judges by
 * (capped at the options one can choose now, `choiceBounds`). An element limited to cart items keeps
 * `forEventItems` as an empty array: hidden, as the evaluator hides it with no cart, without naming the
 * host's products.
 */
export type PublicFormElement = DistributiveOmit<FormElement, 'propertyId' | 'propertyData'> & { optionLabels?: string[] };

export type PublicForm = Pick<Form, 'id' | 'name' | 'nameHidden' | 'type' | 'submitButtonText' | 'submitButtonWidth' | 'submitButtonAlign' | 'rows' | 'attendeeRowsStart'> & {
  elements: PublicFormElement[];
};

function toPublicElement(element: FormElement): PublicFormElement {
  const { propertyId: _id, propertyData, ...rest } = element as FormElement & { propertyId?: string; propertyData?: PropertyData };
  const publicElement = { ...rest } as PublicFormElement & { options?: string[]; forEventItems?: unknown[]; minChoices?: number; maxChoices?: number };
  if (publicElement.forEventItems !== undefined) publicElement.forEventItems = [];
  const propertyOptions = propertyData?.options;
  if (isSelection(element.type) && publicElement.options === undefined && propertyOptions) {
    publicElement.options = propertyOptions.map((option) => option.value);
    publicElement.optionLabels = propertyOptions.map((option) => option.label);
  }
  // The choice counts a submission is judged by (capped at the property's options as they are now).
  const { min, max } = choiceBounds(view(element));
  if (min !== undefined) publicElement.minChoices = min;
  if (max !== undefined) publicElement.maxChoices = max;
  return publicElement;
}

/** The public shape of a form read with its `propertyData` (linked options come from there). */
export function toPublicForm(form: Form): PublicForm {
  return {
    id: form.id,
    name: form.name,
    ...(form.nameHidden !== undefined ? { nameHidden: form.nameHidden } : {}),
    type: form.type,
    submitButtonText: form.submitButtonText,
    submitButtonWidth: form.submitButtonWidth,
    ...(form.submitButtonAlign !== undefined ? { submitButtonAlign: form.submitButtonAlign } : {}),
    elements: form.elements.map(toPublicElement),
    rows: form.rows,
    attendeeRowsStart: form.attendeeRowsStart,
  };
}

const optionLabels = lazy(() => z.array(z.string()).optional()
  .meta({ description: 'Questions linked to a select property: the display text of each entry of `options` (which then holds the property\'s option values).' }));

/** Every element variant of `FormElement` without the property link, plus `optionLabels` on selections. */
const publicElementVariants = once(() => formElementSchema.options.map((variant) => {
  const shape = variant.shape as Record<string, z.ZodType>;
  const kept = Object.fromEntries(Object.entries(shape).filter(([key]) => key !== 'propertyId' && key !== 'propertyData'));
  const type = (shape.type as z.ZodLiteral<(typeof ELEMENT_TYPES)[number]>).value;
  return z.object({ ...kept, ...(isSelection(type) ? { optionLabels } : {}) });
}));

export const publicFormElementSchema = lazy(() => z.union(publicElementVariants()).meta({
  id: 'PublicFormElement',
  description: 'A form element as respondents see it: `FormElement` without `propertyId`/`propertyData`; `forEventItems` is `[]` when present (cart-limited elements stay hidden).',
}));

export const publicFormSchema = lazy(() => formSchema
  .pick({ id: true, name: true, nameHidden: true, type: true, submitButtonText: true, submitButtonWidth: true, submitButtonAlign: true, rows: true, attendeeRowsStart: true })
  .extend({ elements: z.array(publicFormElementSchema) })
  .meta({
    id: 'PublicForm',
    description: 'An active form as a respondent sees it: no workspace, status, version or CRM property internals.',
    example: {
      id: '6740f1a2c3d4e5f601234567',
      name: 'Newsletter signup',
      type: 'standalone',
      submitButtonText: 'Sign me up',
      submitButtonWidth: 'auto',
      elements: [
        { id: '6740f1a2c3d4e5f601234568', type: 'Email', prompt: 'Email', required: true, contactField: 'email' },
        { id: '6740f1a2c3d4e5f601234569', type: 'Yes/No', prompt: 'Subscribe?', dropdown: true, logicGroups: [{ revealedElementIndex: 2, selectionType: 'is', value: true }] },
        { id: '6740f1a2c3d4e5f60123456a', type: 'Select One', prompt: 'Size', dropdown: true, options: ['s', 'm'], optionLabels: ['Small', 'Medium'] },
      ],
      rows: [{ columns: [{ elementIndex: 0, widthFraction: 1 }] }, { columns: [{ elementIndex: 1, widthFraction: 0.5 }, { elementIndex: 2, widthFraction: 0.5 }] }],
      attendeeRowsStart: 0,
    },
  }));
