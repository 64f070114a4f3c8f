import { hasOther, optionValuesOf, type ElementView } from './element-kinds.js';
import type { EventItemReference, LogicGroup } from './form-element-model.js';
import type { Form } from './form-model.js';
import { isSelectionGroup } from './form-logic.js';
import { sectionOf } from './form-layout.js';

/**
 * Which elements a respondent sees, given their answers: the one evaluator behind every consumer of
 * form logic (a future "Submit response" uses it to decide which elements are required and accepted).
 *
 * Answers are keyed by element id. A selection answer is the chosen option (string) or options (array):
 * the option text for questions with their own `options`, the option `value` for questions linked to a
 * property; a string that is no option is the Other answer (index -1) on types that have Other. A
 * Yes/No answer is a boolean; absent means "no answer", which is NOT `false`.
 */
export interface VisibilityInput {
  /** Buyer answers (standalone forms: all answers). */
  readonly answers: Readonly<Record<string, unknown>>;
  /** One attendee's answers, when evaluating that attendee's instance of an order form. */
  readonly attendee?: Readonly<Record<string, unknown>>;
  /** Items and products in the cart, for `forEventItems` (order forms). */
  readonly cart?: readonly EventItemReference[];
}

/**
 * Any form whose elements read as ElementView: a stored form, or the public shape the
 * `<boxoffice-form>` widget renders (which imports this module: keep its imports light, no zod).
 */
type EvaluatedForm = Pick<Form, 'type'> & { readonly elements: readonly ElementView[] };

function sameReference(a: EventItemReference, b: EventItemReference): boolean {
  return JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
}

function inCart(element: ElementView, cart: readonly EventItemReference[]): boolean {
  if (element.forEventItems === undefined) return true;
  return element.forEventItems.some((reference) => cart.some((item) => sameReference(reference, item)));
}

/** The option indices an answer selects; -1 for a free-text (Other) answer where the type has Other. */
export function selectedIndices(element: ElementView, answer: unknown): Set<number> {
  const chosen = typeof answer === 'string' ? [answer] : Array.isArray(answer) ? answer.filter((value): value is string => typeof value === 'string') : [];
  const options = optionValuesOf(element) ?? [];
  const indices = new Set<number>();
  for (const value of chosen) {
    const index = options.indexOf(value);
    if (index >= 0) indices.add(index);
    else if (hasOther(element.type) && value.trim() !== '') indices.add(-1);
  }
  return indices;
}

/** Whether one group of `source` is satisfied by its answer. */
export function groupSatisfied(source: ElementView, group: LogicGroup, answer: unknown): boolean {
  if (!isSelectionGroup(group)) {
    // Strict (in)equality: an absent answer equals neither true nor false.
    const given = typeof answer === 'boolean' ? answer : undefined;
    return group.selectionType === 'is' ? given === group.value : given !== group.value;
  }
  const selected = selectedIndices(source, answer);
  switch (group.operator) {
    case 'any_of': return group.optionIndices.some((index) => selected.has(index));
    case 'all_of': return group.optionIndices.every((index) => selected.has(index));
    case 'none_of': return group.optionIndices.every((index) => !selected.has(index));
  }
}

/**
 * Ids of the visible elements. An element referenced by a logic group is hidden until a group
 * referencing it is satisfied by a VISIBLE source (a hidden question's stale answer reveals nothing);
 * an element with `forEventItems` also needs a referenced item in the cart. Computed as a least fixed
 * point, so chains resolve in any order and cycles with no outside trigger stay hidden.
 */
export function visibleElementIds(evaluated: EvaluatedForm, input: VisibilityInput): Set<string> {
  const cart = input.cart ?? [];
  const revealers = new Map<number, { source: number; group: LogicGroup }[]>();
  evaluated.elements.forEach((element, source) => {
    for (const group of element.logicGroups ?? []) {
      const list = revealers.get(group.revealedElementIndex) ?? [];
      list.push({ source, group });
      revealers.set(group.revealedElementIndex, list);
    }
  });
  const answerOf = (element: ElementView): unknown => {
    const answers = sectionOf(evaluated, element) === 'attendee' ? input.attendee ?? {} : input.answers;
    return element.id === undefined ? undefined : answers[element.id];
  };
  const visible = new Set<number>();
  evaluated.elements.forEach((element, index) => {
    if (!revealers.has(index) && inCart(element, cart)) visible.add(index);
  });
  for (let changed = true; changed;) {
    changed = false;
    evaluated.elements.forEach((element, index) => {
      if (visible.has(index) || !inCart(element, cart)) return;
      const revealed = (revealers.get(index) ?? []).some(({ source, group }) => {
        const sourceElement = evaluated.elements[source] as ElementView;
        return visible.has(source) && groupSatisfied(sourceElement, group, answerOf(sourceElement));
      });
      if (revealed) {
        visible.add(index);
        changed = true;
      }
    });
  }
  return new Set([...visible].map((index) => evaluated.elements[index]?.id).filter((id): id is string => id !== undefined));
}
