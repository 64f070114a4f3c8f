import type { PropertyType } from '../properties/property-model.js';
import type { ElementType, EventItemReference, FormElement, LogicGroup, PropertyData } from './form-element-model.js';

/*
 * What each kind of form element is, over the types of the element model. No zod and no import
 * outside shared/forms at runtime: the browser widget bundles the logic evaluator, which reads these.
 */

/**
 * A read-only view of any element variant with every field optional: rules read fields through it
 * instead of narrowing the union at each step. Every variant of `FormElement` is assignable to it.
 */
export interface ElementView {
  readonly id?: string;
  readonly type: ElementType;
  readonly prompt: string;
  readonly required?: boolean;
  readonly propertyId?: string;
  readonly propertyData?: PropertyData;
  readonly contactField?: string;
  readonly options?: readonly string[];
  readonly dropdown?: boolean;
  readonly placeholder?: string;
  readonly otherPrompt?: string;
  readonly minChoices?: number;
  readonly maxChoices?: number;
  readonly minValue?: number;
  readonly maxValue?: number;
  readonly integerOnly?: boolean;
  readonly accept?: readonly string[];
  readonly min?: string;
  readonly max?: string;
  readonly logicGroups?: readonly LogicGroup[];
  readonly askAllAttendees?: boolean;
  readonly forEventItems?: readonly EventItemReference[];
}

export function view(element: FormElement): ElementView {
  return element;
}

export const STATIC_TYPES: readonly ElementType[] = ['Static Text', 'Static Image'];
export const SELECTION_TYPES: readonly ElementType[] = ['Select One', 'Select One or "Other"', 'Select Multiple', 'Select Multiple with "Other"'];
export const OTHER_TYPES: readonly ElementType[] = ['Select One or "Other"', 'Select Multiple with "Other"'];

/** The Other toggle (spec "Form element type"): the only way an element changes type. */
export const OTHER_TOGGLE: Readonly<Record<string, { on: ElementType; off: ElementType }>> = {
  'Select One': { on: 'Select One or "Other"', off: 'Select One' },
  'Select One or "Other"': { on: 'Select One or "Other"', off: 'Select One' },
  'Select Multiple': { on: 'Select Multiple with "Other"', off: 'Select Multiple' },
  'Select Multiple with "Other"': { on: 'Select Multiple with "Other"', off: 'Select Multiple' },
};

/** The CRM property type a question may be linked to: the data types must match (spec). */
export const PROPERTY_TYPE_OF: Readonly<Partial<Record<ElementType, PropertyType>>> = {
  Text: 'Text',
  'Multi-line Text': 'Multi-line Text',
  Number: 'Number',
  'Select One': 'Select One',
  'Select One or "Other"': 'Select One',
  'Select Multiple': 'Select Multiple',
  'Select Multiple with "Other"': 'Select Multiple',
  'Yes/No': 'Yes/No',
  Date: 'Date',
  File: 'File',
  Email: 'Email',
  Phone: 'Phone',
};

export function isQuestion(type: ElementType): boolean {
  return !STATIC_TYPES.includes(type);
}

export function isSelection(type: ElementType): boolean {
  return SELECTION_TYPES.includes(type);
}

export function hasOther(type: ElementType): boolean {
  return OTHER_TYPES.includes(type);
}

/** Sources of logic groups: selection questions and Yes/No. */
export function canRevealOthers(type: ElementType): boolean {
  return isSelection(type) || type === 'Yes/No';
}

/** The options a selection answer is chosen from: its own, else the linked property's values. */
export function optionValuesOf(element: ElementView, propertyOptions?: readonly { value: string }[]): readonly string[] | undefined {
  if (element.options) return element.options;
  const fromProperty = propertyOptions ?? element.propertyData?.options;
  return fromProperty?.map((option) => option.value);
}

/**
 * The choice counts a Select Multiple answer is judged by: `minChoices`/`maxChoices` capped at the
 * number of options one can choose now (the options, plus Other where the type has it). A linked
 * question takes its options from the property as it is at submission, and the property may lose
 * options after the form was built (nothing rewrites the form then): without the cap, `minChoices`
 * above the remaining options would make the form impossible to submit.
 */
export function choiceBounds(element: ElementView): { min: number | undefined; max: number | undefined } {
  const choosable = (optionValuesOf(element)?.length ?? 0) + (hasOther(element.type) ? 1 : 0);
  return {
    min: element.minChoices === undefined ? undefined : Math.min(element.minChoices, choosable),
    max: element.maxChoices === undefined ? undefined : Math.min(element.maxChoices, choosable),
  };
}
