import type { ElementView } from '../../shared/forms/element-kinds.js';
import { describe, h, type Child } from './dom.js';
import { safeHttpUrl } from './format.js';

/** Every field a public form element may carry, all optional: rendering reads them through this view. */
export type WidgetElement = ElementView & {
  readonly promptHidden?: boolean;
  readonly helperText?: string;
  readonly content?: string;
  readonly imageUrl?: string;
  readonly imageWidth?: number;
  readonly optionLabels?: readonly string[];
  readonly integerOnly?: boolean;
  readonly yesRequired?: boolean;
  readonly accept?: readonly string[];
};

/** One rendered element (of the buyer section, or of one attendee's instance). */
export interface Field {
  readonly element: WidgetElement;
  /** The `.field` box; hidden while logic hides the element. */
  readonly box: HTMLElement;
  readonly error: HTMLElement;
  /** Where focus goes when the field is invalid. */
  readonly focusTarget: HTMLElement | undefined;
  /** Controls that get `aria-invalid`. */
  readonly controls: readonly HTMLElement[];
  /** The answer as the API takes it, or undefined when blank. */
  read(): unknown;
}

const OTHER = '\u0000other';
const AUTOCOMPLETE: Record<string, string> = { firstName: 'given-name', lastName: 'family-name', email: 'email', phone: 'tel' };
const ACCEPT_HINT: Record<string, string> = { images: 'images', documents: 'documents', data: 'data files', audio: 'audio', video: 'video' };

const blankToUndefined = (value: string): string | undefined => (value.trim() === '' ? undefined : value);

function requiredMark(element: WidgetElement): Child {
  const required = element.required === true || (element.minChoices ?? 0) > 0 || element.yesRequired === true;
  return required ? h('span', { class: 'req' }, h('span', { 'aria-hidden': 'true' }, ' *'), h('span', { class: 'vh' }, ' (required)')) : null;
}

/** Text under the control that explains its limits (number bounds, dates, choices, file types). */
function hintOf(element: WidgetElement): string | undefined {
  const parts: string[] = [];
  if (element.type === 'Number') {
    if (element.minValue !== undefined && element.maxValue !== undefined) parts.push(`Between ${element.minValue} and ${element.maxValue}`);
    else if (element.minValue !== undefined) parts.push(`At least ${element.minValue}`);
    else if (element.maxValue !== undefined) parts.push(`At most ${element.maxValue}`);
    if (element.integerOnly) parts.push('a whole number');
  } else if (element.type === 'Date') {
    if (element.min) parts.push(`On or after ${element.min}`);
    if (element.max) parts.push(`on or before ${element.max}`);
  } else if (element.type === 'File') {
    parts.push(`A link to your file (${(element.accept ?? []).map((kind) => ACCEPT_HINT[kind] ?? kind).join(', ')})`);
  } else if (element.minChoices !== undefined || element.maxChoices !== undefined) {
    if ((element.minChoices ?? 0) > 0) parts.push(`Choose at least ${element.minChoices}`);
    if (element.maxChoices !== undefined) parts.push(`${parts.length > 0 ? 'at most' : 'Choose at most'} ${element.maxChoices}`);
  }
  return parts.length > 0 ? `${parts.join(', ')}.` : undefined;
}

/** Help, hint and error texts below a control, all linked to it with aria-describedby. */
function describedBy(element: WidgetElement, id: string, targets: readonly Element[]): { nodes: Child[]; error: HTMLElement } {
  const help = element.helperText ? h('p', { class: 'help', id: `${id}-help` }, element.helperText) : null;
  const hintText = hintOf(element);
  const hint = hintText ? h('p', { class: 'help', id: `${id}-hint` }, hintText) : null;
  const error = h('p', { class: 'error', id: `${id}-error`, part: 'error' });
  const ids = [help, hint, error].filter((node): node is HTMLParagraphElement => node !== null).map((node) => node.id);
  for (const target of targets) describe(target, ...ids);
  return { nodes: [hint, help, error], error };
}

function inputFor(element: WidgetElement, id: string): HTMLInputElement | HTMLTextAreaElement {
  const common = { id, name: id, placeholder: element.placeholder, 'aria-required': element.required ? 'true' : undefined };
  switch (element.type) {
    case 'Multi-line Text': return h('textarea', common);
    case 'Number': return h('input', { ...common, type: 'number', inputmode: element.integerOnly ? 'numeric' : 'decimal', min: element.minValue, max: element.maxValue, step: element.integerOnly ? 1 : 'any' });
    case 'Date': return h('input', { ...common, type: 'date', min: element.min, max: element.max });
    case 'Email': return h('input', { ...common, type: 'email', autocomplete: 'email' });
    case 'Phone': return h('input', { ...common, type: 'tel', autocomplete: 'tel' });
    case 'File': return h('input', { ...common, type: 'url', inputmode: 'url' });
    default: return h('input', { ...common, type: 'text', autocomplete: AUTOCOMPLETE[element.contactField ?? ''] });
  }
}

function textField(element: WidgetElement, id: string): Field {
  const input = inputFor(element, id);
  const { nodes, error } = describedBy(element, id, [input]);
  const box = h('div', { class: 'field' },
    h('label', { for: id, class: element.promptHidden ? 'vh' : undefined }, element.prompt, requiredMark(element)), input, ...nodes);
  const read = () => {
    if (element.type !== 'Number') return blankToUndefined(input.value);
    return input.value.trim() === '' ? undefined : Number(input.value);
  };
  return { element, box, error, focusTarget: input, controls: [input], read };
}

interface Choice {
  value: string;
  label: string;
}

function choicesOf(element: WidgetElement): Choice[] {
  const options = element.options ?? [];
  return options.map((value, index) => ({ value, label: element.optionLabels?.[index] ?? value }));
}

/** A free-text box for the Other choice, shown while Other is chosen. */
function otherBox(element: WidgetElement, id: string): HTMLInputElement {
  return h('input', { type: 'text', id: `${id}-other`, 'aria-label': `${element.otherPrompt ?? 'Other'} (please specify)`, hidden: true });
}

/** Radios (Select One, Yes/No) or checkboxes (Select Multiple) in a fieldset whose legend is the prompt. */
function choiceGroup(element: WidgetElement, id: string, kind: 'radio' | 'checkbox', choices: Choice[], withOther: boolean): { box: HTMLFieldSetElement; inputs: HTMLInputElement[]; other: HTMLInputElement | undefined; error: HTMLElement } {
  const inputs: HTMLInputElement[] = [];
  const labels = choices.map((choice, index) => {
    const input = h('input', { type: kind, name: id, id: `${id}-${index}`, value: choice.value });
    inputs.push(input);
    return h('label', { class: 'choice' }, input, choice.label);
  });
  let other: HTMLInputElement | undefined;
  if (withOther) {
    const input = h('input', { type: kind, name: id, id: `${id}-o`, value: OTHER });
    inputs.push(input);
    other = otherBox(element, id);
    labels.push(h('label', { class: 'choice' }, input, element.otherPrompt ?? 'Other'));
  }
  const box = h('fieldset', { class: 'field' });
  const { nodes, error } = describedBy(element, id, [box]);
  box.append(
    h('legend', { class: element.promptHidden ? 'vh' : undefined }, element.prompt, requiredMark(element)),
    h('div', { class: 'choices' }, ...labels, other ?? null),
    ...nodes.filter((node): node is Node => node instanceof Node),
  );
  if (other) {
    const otherChoice = inputs[inputs.length - 1] as HTMLInputElement;
    const sync = () => {
      const wasHidden = (other as HTMLInputElement).hidden;
      (other as HTMLInputElement).hidden = !otherChoice.checked;
      if (wasHidden && otherChoice.checked) (other as HTMLInputElement).focus();
    };
    box.addEventListener('change', sync);
  }
  return { box, inputs, other, error };
}

function selectOneDropdown(element: WidgetElement, id: string, withOther: boolean): Field {
  const select = h('select', { id, name: id, 'aria-required': element.required ? 'true' : undefined },
    h('option', { value: '' }, element.placeholder ?? 'Choose…'),
    ...choicesOf(element).map((choice) => h('option', { value: choice.value }, choice.label)),
    withOther ? h('option', { value: OTHER }, element.otherPrompt ?? 'Other') : null);
  const other = withOther ? otherBox(element, id) : undefined;
  const { nodes, error } = describedBy(element, id, [select]);
  if (other) {
    select.addEventListener('change', () => {
      other.hidden = select.value !== OTHER;
      if (!other.hidden) other.focus();
    });
  }
  const box = h('div', { class: 'field' },
    h('label', { for: id, class: element.promptHidden ? 'vh' : undefined }, element.prompt, requiredMark(element)), select, other ?? null, ...nodes);
  const read = () => (select.value === OTHER ? blankToUndefined(other?.value ?? '') : blankToUndefined(select.value));
  return { element, box, error, focusTarget: select, controls: [select], read };
}

function selectField(element: WidgetElement, id: string): Field {
  const withOther = element.type === 'Select One or "Other"' || element.type === 'Select Multiple with "Other"';
  const single = element.type === 'Select One' || element.type === 'Select One or "Other"';
  if (single && element.dropdown === true) return selectOneDropdown(element, id, withOther);
  const { box, inputs, other, error } = choiceGroup(element, id, single ? 'radio' : 'checkbox', choicesOf(element), withOther);
  const chosen = () => inputs.filter((input) => input.checked).map((input) => (input.value === OTHER ? blankToUndefined(other?.value ?? '') : input.value))
    .filter((value): value is string => value !== undefined);
  const read = () => {
    const values = chosen();
    if (single) return values[0];
    return values.length > 0 ? values : undefined;
  };
  return { element, box, error, focusTarget: inputs[0], controls: inputs, read };
}

function yesNoField(element: WidgetElement, id: string): Field {
  const { box, inputs, error } = choiceGroup(element, id, 'radio', [{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }], false);
  const read = () => {
    const checked = inputs.find((input) => input.checked);
    return checked ? checked.value === 'true' : undefined;
  };
  return { element, box, error, focusTarget: inputs[0], controls: inputs, read };
}

/** Static text: paragraphs split on blank lines, line breaks kept, always as text (never HTML). */
function staticTextField(element: WidgetElement): Field {
  const paragraphs = (element.content ?? '').split(/\n\s*\n/).filter((text) => text.trim() !== '').map((text) => h('p', {}, text.trim()));
  const box = h('div', { class: 'field static', part: 'static' },
    element.promptHidden ? null : h('p', { class: 'label' }, h('strong', {}, element.prompt)), ...paragraphs);
  box.style.whiteSpace = 'pre-line';
  return { element, box, error: h('p', { class: 'error' }), focusTarget: undefined, controls: [], read: () => undefined };
}

function staticImageField(element: WidgetElement): Field {
  const src = safeHttpUrl(element.imageUrl);
  const image = src ? h('img', { src, alt: element.promptHidden ? element.prompt : '', loading: 'lazy' }) : null;
  if (image) image.style.width = `${Math.min(100, Math.max(1, element.imageWidth ?? 100))}%`;
  const box = h('figure', { class: 'field static', part: 'static' }, image, element.promptHidden ? null : h('figcaption', {}, element.prompt));
  box.style.margin = '0';
  return { element, box, error: h('p', { class: 'error' }), focusTarget: undefined, controls: [], read: () => undefined };
}

/** Renders one element with the input its type calls for; `id` is unique in the page. */
export function renderField(element: WidgetElement, id: string): Field {
  switch (element.type) {
    case 'Select One':
    case 'Select One or "Other"':
    case 'Select Multiple':
    case 'Select Multiple with "Other"':
      return selectField(element, id);
    case 'Yes/No': return yesNoField(element, id);
    case 'Static Text': return staticTextField(element);
    case 'Static Image': return staticImageField(element);
    default: return textField(element, id);
  }
}
